package main

import (
	"fmt"
	"testing"
)

// refsSetup fills the benchmark's page with 6,000 elements that hold refs
// (issue 3: a no-op call on such a page stays well under 300 ms, since
// ref bookkeeping is O(1) per element and nothing walks the refs map).
const refsSetup = `{"pageFunction":"document.body.innerHTML = '<div id=small><button>Small</button></div>' + Array.from({length: 6000}, (_, i) => '<button>B' + i + '</button>').join('')"},{"snapshot":{"inlineLimit":1}}`

func BenchmarkCallGetTitleWith6000Refs(b *testing.B) {
	benchCall(b, func(tab string) string {
		return fmt.Sprintf(`{"tab":%q,"steps":[{"getTitle":true}]}`, tab)
	}, refsSetup)
}

// A scoped internal snapshot on the same page: its cost must follow the
// scope, not the 6,000 refs the page holds.
func BenchmarkCallScopedSnapshotWith6000Refs(b *testing.B) {
	benchCall(b, func(tab string) string {
		return fmt.Sprintf(`{"tab":%q,"steps":[{"snapshot":{"root":"#small","internal":true}}]}`, tab)
	}, refsSetup)
}

// A role query that finds one of the 6,000 buttons by name.
func BenchmarkCallQueryRoleWith6000Refs(b *testing.B) {
	benchCall(b, func(tab string) string {
		return fmt.Sprintf(`{"tab":%q,"steps":[{"query":{"role":"button","nameExact":"B5999"}}]}`, tab)
	}, refsSetup)
}

// A click that changes nothing on the page of 6,000 refs: what the
// report's snapshots cost on a large page.
func BenchmarkCallClickWith6000Refs(b *testing.B) {
	benchCall(b, func(tab string) string {
		return fmt.Sprintf(`{"tab":%q,"steps":[{"click":"#small button"}]}`, tab)
	}, refsSetup)
}
