package capture

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Exchanges are kept beside the log, a later line adding to an earlier
// one, and the file is rewritten with only the log's requests once it
// grows past its bound.
func TestExchangesFile(t *testing.T) {
	dir := t.TempDir()
	log := NetworkLog{Path: filepath.Join(dir, "t1.network.jsonl"), Target: "T"}
	a := Request{ID: "1", URL: "http://a/x", Start: 5, Exchange: &Exchange{RequestHeaders: Headers{"Accept": "*/*"}}}
	b := Request{ID: "2", URL: "http://a/y", Start: 6, Exchange: &Exchange{StatusText: "OK"}}
	if err := log.appendExchanges([]Request{a, b}, []Request{a, b}); err != nil {
		t.Fatal(err)
	}
	patch := a
	patch.Exchange = &Exchange{ResponseHeaders: Headers{"Content-Type": "text/plain"}, StatusText: "OK"}
	if err := log.appendExchanges([]Request{patch}, []Request{a, b}); err != nil {
		t.Fatal(err)
	}
	read := []Request{{ID: "1", URL: "http://a/x", Start: 5}, {ID: "2", URL: "http://a/y", Start: 6}, {ID: "3", URL: "http://a/z", Start: 7}}
	log.ReadExchanges(read)
	if x := read[0].Exchange; x == nil || x.RequestHeaders["Accept"] != "*/*" || x.ResponseHeaders["Content-Type"] != "text/plain" || x.StatusText != "OK" {
		t.Errorf("merged: %+v", x)
	}
	if read[1].Exchange == nil || read[2].Exchange != nil {
		t.Errorf("by key: %+v, %+v", read[1].Exchange, read[2].Exchange)
	}
	defer func(was int64) { maxExchangeFile = was }(maxExchangeFile)
	maxExchangeFile = 10
	if err := log.appendExchanges([]Request{b}, []Request{b}); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(log.exchangesPath())
	if n := strings.Count(string(data), "\n"); n != 1 || !strings.Contains(string(data), `"id":"2"`) {
		t.Errorf("rewritten: %s", data)
	}
}
