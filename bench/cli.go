package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"
)

// callLimit bounds one process; a call that takes this long has failed.
const callLimit = 60 * time.Second

// cli runs the cdpskill binary as an agent does: one process per call,
// the batch in argv, all calls sharing one TMPDIR (so one tab registry)
// that is the run's own, never the user's. The processes are started by
// the spawner (spawn.go), which measures them.
type cli struct {
	bin string
	sp  *spawner
}

// cliEnv is the environment of every call: the run's own TMPDIR and HOME
// (site profiles live in HOME), no remote browser, no metrics file.
func cliEnv(tmp string) []string {
	return append(os.Environ(), "TMPDIR="+tmp, "HOME="+tmp, "CDP_URL=", "CDP_METRICS_FILE=")
}

// sample is one measured call.
type sample struct {
	dur   time.Duration
	bytes int   // stdout
	rssKB int64 // the process's peak resident set
	// rssUnsure: rssKB is not above the spawner's own peak, so it may be
	// the spawner's figure, an upper bound of the call's.
	rssUnsure bool
	cpu       time.Duration // the process's user and system CPU time
	err       error         // the call failed (exit status, or not {"status":"ok"})
}

// call runs one batch and measures the whole process, from start to exit.
func (c *cli) call(ctx context.Context, input string) (sample, []byte) {
	rep, err := c.sp.run(ctx, []string{c.bin, input})
	if err != nil {
		return sample{err: err}, nil
	}
	s := sample{dur: time.Duration(rep.NS), bytes: len(rep.Stdout), rssKB: rep.RSSKB,
		rssUnsure: rep.RSSKB <= rep.SelfKB, cpu: time.Duration(rep.CPUNS)}
	switch {
	case rep.TimedOut:
		s.err = fmt.Errorf("did not end within %s", callLimit)
	case rep.Err != "" && len(rep.Stdout) == 0:
		s.err = fmt.Errorf("%s: %s", rep.Err, strings.TrimSpace(rep.Stderr))
	default:
		s.err = statusError(rep.Stdout)
	}
	return s, rep.Stdout
}

// statusError is nil for {"status":"ok"}, else the error the output
// reports.
func statusError(out []byte) error {
	var res struct {
		Status string `json:"status"`
		Error  *struct {
			Type    string `json:"type"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(out, &res); err != nil {
		return fmt.Errorf("output is not one JSON object: %.200s", out)
	}
	if res.Status == "ok" {
		return nil
	}
	if res.Error != nil {
		return fmt.Errorf("%s: %s", res.Error.Type, res.Error.Message)
	}
	return fmt.Errorf("status %q: %.200s", res.Status, out)
}

// must runs an untimed call of the harness's own (opening tabs, setting
// pages up), which must succeed.
func (c *cli) must(ctx context.Context, input string) ([]byte, error) {
	s, out := c.call(ctx, input)
	if s.err != nil {
		return nil, fmt.Errorf("cdpskill %s: %w", input, s.err)
	}
	return out, nil
}

// openTab opens a tab on url in the bench's browser and returns its alias.
func (c *cli) openTab(ctx context.Context, b browserAddr, url string) (string, error) {
	out, err := c.must(ctx, openTabInput(b, url))
	if err != nil {
		return "", err
	}
	var res struct {
		Tab string `json:"tab"`
	}
	if err := json.Unmarshal(out, &res); err != nil || res.Tab == "" {
		return "", errors.New("openTab returned no tab alias")
	}
	return res.Tab, nil
}

// browserAddr is where the bench's Chromium listens.
type browserAddr struct {
	host string
	port int
}

func openTabInput(b browserAddr, url string) string {
	return fmt.Sprintf(`{"steps":[{"openTab":{"url":%q,"host":%q,"port":%d}}]}`, url, b.host, b.port)
}

// onTab is a batch of steps (a JSON list's inside) on a tab.
func onTab(tab, steps string) string {
	return fmt.Sprintf(`{"tab":%q,"steps":[%s]}`, tab, steps)
}
