package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// printTable writes the readable report: one row per scenario.
func printTable(w io.Writer, rs []result) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "scenario\tcalls\tmedian ms\tp90\tmin\tmax\tfloor ms\t×floor\t×lone\tCPU cli\tchrome\tothers\tbytes\tRSS MB\terrors\ttarget\tmet\t")
	for _, r := range rs {
		fmt.Fprintf(tw, "%s\t%d\t%.1f\t%.1f\t%.1f\t%.1f\t%s\t%s\t%s\t%s\t%s\t%.2f\t%d\t%s\t%d\t%s\t%s\t\n",
			r.Scenario, r.Calls, r.MedianMS, r.P90MS, r.MinMS, r.MaxMS,
			orDash(r.FloorMS, "%.1f"), orDash(r.XFloor, "%.2f"), orDash(r.XLone, "%.2f"),
			orDash(r.CLICPUMS, "%.1f"), orDash(r.ChromeCPUMS, "%.1f"), r.OthersCores,
			r.Bytes, rss(r), r.Errors, r.Target, yesNo(r.Met))
	}
	tw.Flush()
}

// printJSON writes one JSON line per scenario.
func printJSON(w io.Writer, rs []result) error {
	enc := json.NewEncoder(w)
	for _, r := range rs {
		if err := enc.Encode(r); err != nil {
			return err
		}
	}
	return nil
}

// verdict is the last line: every target met, or the misses.
func verdict(rs []result) (string, bool) {
	var misses []string
	for _, r := range rs {
		for _, m := range r.Misses {
			misses = append(misses, r.Scenario+": "+m)
		}
	}
	if len(misses) == 0 {
		return fmt.Sprintf("every target met (%d scenarios)", len(rs)), true
	}
	return fmt.Sprintf("%d target(s) missed:\n  %s", len(misses), strings.Join(misses, "\n  ")), false
}

// rss is the peak RSS in MB, "≤" when it is an upper bound.
func rss(r result) string {
	s := orDash(mb(r.RSSKB), "%.1f")
	if r.RSSUpperBound && r.RSSKB > 0 {
		s = "≤" + s
	}
	return s
}

func orDash(x float64, format string) string {
	if x == 0 {
		return "-"
	}
	return fmt.Sprintf(format, x)
}

func yesNo(ok bool) string {
	if ok {
		return "yes"
	}
	return "NO"
}
