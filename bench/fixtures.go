package main

import (
	"embed"
	"fmt"
	"io/fs"
	"net/http"
	"strconv"
	"strings"
)

//go:embed pages/*.html
var pagesFS embed.FS

// fixtures serves the scenarios' pages: the hand-written ones in pages/,
// and generated ones, /generated?n=N (a page of about N elements in the
// shape of a real one) and /buttons?n=N (a line of N buttons, the page
// that will hold N refs once snapshotted).
func fixtures() http.Handler {
	static, err := fs.Sub(pagesFS, "pages")
	if err != nil {
		panic(err) // the embedded directory is there or the build failed
	}
	mux := http.NewServeMux()
	mux.Handle("/", http.FileServer(http.FS(static)))
	mux.HandleFunc("/generated", func(w http.ResponseWriter, r *http.Request) {
		n, err := strconv.Atoi(r.URL.Query().Get("n"))
		if err != nil || n < 50 {
			http.Error(w, "n must be a number ≥ 50", http.StatusBadRequest)
			return
		}
		serveHTML(w, "Generated", generatedBody(n))
	})
	mux.HandleFunc("/buttons", func(w http.ResponseWriter, r *http.Request) {
		n, err := strconv.Atoi(r.URL.Query().Get("n"))
		if err != nil || n < 1 {
			http.Error(w, "n must be a positive number", http.StatusBadRequest)
			return
		}
		serveHTML(w, "Buttons", buttonsBody(n))
	})
	return mux
}

func serveHTML(w http.ResponseWriter, title, body string) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	fmt.Fprintf(w, "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>%s</title></head>\n<body>%s</body></html>\n", title, body)
}

// generatedBody is a page of about n elements as aria/testdata/generate.js
// builds it for the aria benchmarks: landmarks, headings, lists of links,
// cards of div soup with buttons, and form fields. It is served, not
// built by script, so that the page an agent snapshots arrived as pages do.
func generatedBody(n int) string {
	var b strings.Builder
	b.WriteString(`<header><nav aria-label="Main"><ul>`)
	for i := range 8 {
		fmt.Fprintf(&b, `<li><a href="/nav/%d">Nav %d</a></li>`, i, i)
	}
	b.WriteString(`</ul></nav></header><main><h1>Generated</h1>`)
	for i, count := 0, 22; count < n-30; i++ {
		fmt.Fprintf(&b, `<section aria-label="Block %[1]d"><h2>Block %[1]d</h2>`+
			`<div class="card"><div><span>Item %[1]d</span> <span>$%[1]d.99</span></div>`+
			`<p>Some text for item %[1]d with <a href="/item/%[1]d">a link</a>.</p>`+
			`<ul><li>One</li><li>Two</li><li><button>Buy %[1]d</button></li></ul>`+
			`<label>Qty <input name="q%[1]d" value="1"></label>`+
			`<div style="cursor:pointer"><span>Save %[1]d</span></div></div></section>`, i)
		count += 17
	}
	b.WriteString(`</main><footer><p>Footer</p></footer>`)
	return b.String()
}

// buttonsBody is a small control first, then n buttons.
func buttonsBody(n int) string {
	var b strings.Builder
	b.WriteString(`<div id="small"><button>Small</button></div>`)
	for i := range n {
		fmt.Fprintf(&b, `<button>B%d</button>`, i)
	}
	return b.String()
}
