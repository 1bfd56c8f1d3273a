package capture

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
)

// A request's Exchange is kept beside the tab's log, not in it: every call
// reads and rewrites the log, and headers would make it several times as
// long, while only a HAR reads them. The exchanges file is appended to,
// a line a request.

// exchangeLine is a request's Exchange in the log's exchanges file, by
// the request's id, start and URL (a redirect's hops share an id). A later
// line for the same request adds to an earlier one: what a later call
// heard of a request the call before left under way.
type exchangeLine struct {
	Target string `json:"target"`
	ID     string `json:"id"`
	Start  int64  `json:"start"`
	URL    string `json:"url"`
	Exchange
}

// maxExchangeFile is the size past which the exchanges file is rewritten
// with only the log's requests; appending is cheaper than a rewrite per
// call. A variable for the tests.
var maxExchangeFile int64 = 8 << 20

func exchangeKey(id string, start int64, url string) string {
	return fmt.Sprintf("%s %d %s", id, start, url)
}

// exchangesPath is the log's exchanges file, beside it:
// <alias>.network.exchanges.jsonl.
func (l NetworkLog) exchangesPath() string {
	return strings.TrimSuffix(l.Path, ".jsonl") + ".exchanges.jsonl"
}

// appendExchanges adds the exchanges of reqs to the exchanges file, and
// when it has grown past maxExchangeFile rewrites it with only those of
// logged, the log's requests now.
func (l NetworkLog) appendExchanges(reqs, logged []Request) error {
	var b bytes.Buffer
	if err := l.encodeExchanges(&b, reqs); err != nil || b.Len() == 0 {
		return err
	}
	f, err := l.Temp.OpenFile(l.exchangesPath(), os.O_CREATE|os.O_WRONLY|os.O_APPEND)
	if err != nil {
		return err
	}
	_, werr := f.Write(b.Bytes())
	st, serr := f.Stat()
	if err := errors.Join(werr, serr, f.Close()); err != nil {
		return fmt.Errorf("capture: network log: %w", err)
	}
	if st.Size() <= maxExchangeFile {
		return nil
	}
	withX := append([]Request(nil), logged...)
	l.ReadExchanges(withX)
	b.Reset()
	if err := l.encodeExchanges(&b, withX); err != nil {
		return err
	}
	return Files{Temp: l.Temp}.writeFile(l.exchangesPath(), b.Bytes())
}

func (l NetworkLog) encodeExchanges(b *bytes.Buffer, reqs []Request) error {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	for _, r := range reqs {
		if r.Exchange == nil {
			continue
		}
		if err := enc.Encode(exchangeLine{Target: l.Target, ID: r.ID, Start: r.Start, URL: r.URL, Exchange: *r.Exchange}); err != nil {
			return fmt.Errorf("capture: network log: %w", err)
		}
	}
	return nil
}

// ReadExchanges gives the requests read from the log (Read) their
// exchanges; a request the file does not have keeps none. A missing or
// damaged file leaves them as they are.
func (l NetworkLog) ReadExchanges(reqs []Request) {
	data, err := l.Temp.ReadFile(l.exchangesPath(), 2*maxExchangeFile)
	if err != nil {
		return
	}
	found := map[string]*Exchange{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var ln exchangeLine
		if json.Unmarshal(sc.Bytes(), &ln) != nil || (l.Target != "" && ln.Target != l.Target) {
			continue
		}
		key := exchangeKey(ln.ID, ln.Start, ln.URL)
		if x := found[key]; x != nil {
			merged := x.merge(ln.Exchange)
			found[key] = &merged
		} else {
			found[key] = &ln.Exchange
		}
	}
	for i := range reqs {
		if r := &reqs[i]; r.Exchange == nil {
			r.Exchange = found[exchangeKey(r.ID, r.Start, r.URL)]
		}
	}
}

// merge is x with what a later line says of the same request.
func (x Exchange) merge(later Exchange) Exchange {
	if later.RequestHeaders != nil {
		x.RequestHeaders, x.RequestOmitted = later.RequestHeaders, later.RequestOmitted
	}
	if later.ResponseHeaders != nil {
		x.ResponseHeaders, x.ResponseOmitted, x.ResponseHeadersSize = later.ResponseHeaders, later.ResponseOmitted, later.ResponseHeadersSize
	}
	x.StatusText = cmp.Or(later.StatusText, x.StatusText)
	x.Protocol = cmp.Or(later.Protocol, x.Protocol)
	x.RemoteIP = cmp.Or(later.RemoteIP, x.RemoteIP)
	if later.Timing != nil {
		x.Timing = later.Timing
	}
	return x
}

// clearExchanges removes the exchanges file.
func (l NetworkLog) clearExchanges() error {
	if err := os.Remove(l.exchangesPath()); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("capture: network log: %w", err)
	}
	return nil
}
