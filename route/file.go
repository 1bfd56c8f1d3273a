package route

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"slices"

	"github.com/cdpskill/cdpskill/internal/private"
)

// File is a tab's rules as calls keep them, in the tab's
// <alias>.routes.json: whoever holds the tab serves what it says. Target
// guards against an alias a rebuilt registry gave to another tab; Next
// numbers rules, so a hit counted for one never counts for a later one.
type File struct {
	Target string `json:"target"`
	Next   int    `json:"next"`
	Rules  []Rule `json:"rules"`
}

// Hits is what a tab's rules answered, kept beside them by whoever
// serves them (<alias>.routes.hits.json): how many requests each rule
// routed, by its id, and the Network ids of the last requests routed.
type Hits struct {
	Target string      `json:"target"`
	Count  map[int]int `json:"count,omitempty"`
	Routed []Routed    `json:"routed,omitempty"`
}

// Routed is one request a rule answered.
type Routed struct {
	Request string `json:"request"`
	Rule    int    `json:"rule"`
}

// maxRouted is how many routed requests Hits remembers: more than a
// call's network report lists.
const maxRouted = 200

func (h *Hits) add(r Routed) {
	h.Routed = append(h.Routed, r)
	if n := len(h.Routed); n > maxRouted {
		h.Routed = slices.Delete(h.Routed, 0, n-maxRouted)
	}
}

func (h Hits) clone() Hits {
	c := Hits{Target: h.Target, Count: make(map[int]int, len(h.Count)), Routed: slices.Clone(h.Routed)}
	for k, v := range h.Count {
		c.Count[k] = v
	}
	return c
}

// HitsPath is where the hits of the rules at path are kept.
func HitsPath(path string) string { return path[:len(path)-len(".json")] + ".hits.json" }

// Load reads the rules at path for target; a missing file, or one of
// another target, has none.
func Load(temp private.Temp, path, target string) File {
	var f File
	data, err := temp.ReadFile(path, 1<<22)
	if err != nil || json.Unmarshal(data, &f) != nil || f.Target != target {
		return File{Target: target}
	}
	return f
}

// Save writes f at path; a file without rules is removed, with its hits.
func (f File) Save(temp private.Temp, path string) error {
	if len(f.Rules) == 0 {
		return Remove(path)
	}
	data, err := json.Marshal(f)
	if err != nil {
		return err
	}
	return temp.WriteFile(path, data)
}

// Remove removes the rules at path and their hits.
func Remove(path string) error {
	return errors.Join(removeFile(path), removeFile(HitsPath(path)))
}

func removeFile(path string) error {
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// LoadHits reads the hits kept beside the rules at path, for target.
func LoadHits(temp private.Temp, path, target string) Hits {
	var h Hits
	data, err := temp.ReadFile(HitsPath(path), 1<<20)
	if err != nil || json.Unmarshal(data, &h) != nil || h.Target != target {
		return Hits{Target: target, Count: map[int]int{}}
	}
	if h.Count == nil {
		h.Count = map[int]int{}
	}
	return h
}

// SaveHits writes h beside the rules at path.
func SaveHits(temp private.Temp, path string, h Hits) error {
	data, err := json.Marshal(h)
	if err != nil {
		return err
	}
	return temp.WriteFile(HitsPath(path), data)
}

// Add puts r among f's rules, numbered, in place of one that routes the
// same requests; it returns the rule it replaced, if any.
func (f *File) Add(r Rule) *Rule {
	f.Next++
	r.ID = f.Next
	var replaced *Rule
	f.Rules = slices.DeleteFunc(f.Rules, func(o Rule) bool {
		if o.Same(&r) {
			replaced = &o
			return true
		}
		return false
	})
	f.Rules = append(f.Rules, r)
	return replaced
}

// Remove takes out the rules whose URL is url, or all with url "";
// it returns those it took.
func (f *File) Remove(url string) []Rule {
	var gone []Rule
	f.Rules = slices.DeleteFunc(f.Rules, func(r Rule) bool {
		if url == "" || r.URL == url {
			gone = append(gone, r)
			return true
		}
		return false
	})
	return gone
}
