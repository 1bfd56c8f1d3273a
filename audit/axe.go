package audit

import (
	"bytes"
	"compress/gzip"
	"context"
	_ "embed"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"

	"github.com/cdpskill/cdpskill/cdp/proto"
	"github.com/cdpskill/cdpskill/page"
)

// The vendored axe-core (MPL-2.0; axe/LICENSE, and axe/LICENSE-3RD-PARTY.txt
// for what its build bundles), refreshed from the npm package by make axe,
// never edited by hand: VERSION pins it, rules.txt lists its rule ids.
var (
	//go:embed axe/axe.min.js.gz
	axeGzip []byte
	//go:embed axe/VERSION
	versionFile string
	//go:embed axe/rules.txt
	rulesFile string
)

// Version is the vendored axe-core's version.
var Version = strings.TrimSpace(versionFile)

// Rules lists the rule ids of the vendored axe-core, sorted.
var Rules = strings.Fields(rulesFile)

func knownRule(id string) bool {
	_, ok := slices.BinarySearch(Rules, id)
	return ok
}

// axeSource is axe.min.js, unzipped once per process and only when a
// document lacks it: the binary carries 180 KB rather than 650 KB, and a
// call that audits a document that has it already unzips nothing.
var axeSource = sync.OnceValues(func() (string, error) {
	r, err := gzip.NewReader(bytes.NewReader(axeGzip))
	if err != nil {
		return "", fmt.Errorf("the embedded axe-core: %w", err)
	}
	src, err := io.ReadAll(r)
	if err != nil {
		return "", fmt.Errorf("the embedded axe-core: %w", err)
	}
	return string(src), nil
})

// loadTail follows axe's source in the evaluation that loads it: axe
// answers other frames' messages (its way of auditing frames, which
// cdpskill does not use, auditing each frame itself), and no origin
// allowed means the page can neither start nor feed a run of it.
const loadTail = "\n;axe.configure({ allowedOrigins: [], noHtml: true });\naxe.version\n//# sourceURL=" + page.InternalScript

// load puts axe-core in the helper world of p's current frame, where it
// stays for the document's life: the page's scripts cannot reach it
// there, nor replace the built-ins it uses.
func load(ctx context.Context, p *page.Page) error {
	src, err := axeSource()
	if err != nil {
		return err
	}
	obj, err := p.Evaluate(ctx, proto.RuntimeEvaluate{Expression: src + loadTail, ReturnByValue: true})
	if err != nil {
		return fmt.Errorf("loading axe-core: %w", err)
	}
	if got := strings.Trim(string(obj.Value), `"`); got != Version {
		return fmt.Errorf("loading axe-core: the page has axe %s, not %s", got, Version)
	}
	return nil
}
