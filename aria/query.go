package aria

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/cdpskill/cdpskill/aria/js"
	"github.com/cdpskill/cdpskill/internal/invalid"
	"github.com/cdpskill/cdpskill/page"
)

// RoleQuery finds elements by ARIA role (SPEC 6.5, 11.3 role mode).
// Filters combine; names are accessible names.
type RoleQuery struct {
	// Role and Roles name the roles wanted; results have any of them.
	Role  string   `json:"role,omitempty"`
	Roles []string `json:"roles,omitempty"`
	// Name is a case-insensitive substring of the name.
	Name string `json:"name,omitempty"`
	// NameExact is true (Name must be the whole name) or the whole name
	// itself; the comparison is case-sensitive after whitespace is
	// collapsed.
	NameExact any `json:"nameExact,omitempty"`
	// NameRegex is a case-insensitive regular expression over the name.
	NameRegex string `json:"nameRegex,omitempty"`
	Checked   *bool  `json:"checked,omitempty"`
	Disabled  *bool  `json:"disabled,omitempty"`
	// Level is a heading level, 1 to 6.
	Level int `json:"level,omitempty"`
	// CountOnly returns only the total.
	CountOnly bool `json:"countOnly,omitempty"`
	// Limit caps the results (default 10); Total counts them all.
	Limit int `json:"limit,omitempty"`

	// SnapshotFloor and ElementFloor: as in Options.
	SnapshotFloor int `json:"-"`
	ElementFloor  int `json:"-"`
}

var roleRE = regexp.MustCompile(`^[a-z]+$`)

// AllRoles is Role and Roles together, lower-cased, without duplicates.
func (q RoleQuery) AllRoles() []string {
	var out []string
	for _, r := range append([]string{q.Role}, q.Roles...) {
		r = strings.ToLower(strings.TrimSpace(r))
		if r != "" && !slices.Contains(out, r) {
			out = append(out, r)
		}
	}
	return out
}

// exactName is the whole name NameExact asks for, if any.
func (q RoleQuery) exactName() (string, bool) {
	switch v := q.NameExact.(type) {
	case bool:
		return q.Name, v
	case string:
		return v, true
	}
	return "", false
}

// Validate checks the query without touching Chrome.
func (q RoleQuery) Validate() error {
	roles := q.AllRoles()
	if len(roles) == 0 {
		return &invalid.Option{Field: "role", Reason: `missing: give "role" or "roles"`}
	}
	for _, r := range roles {
		if !roleRE.MatchString(r) {
			return &invalid.Option{Field: "role", Value: r, Reason: "not an ARIA role name"}
		}
	}
	switch v := q.NameExact.(type) {
	case nil, string:
	case bool:
		if v && q.Name == "" {
			return &invalid.Option{Field: "nameExact", Reason: `needs "name" (or give the exact name as nameExact's value)`}
		}
	default:
		return &invalid.Option{Field: "nameExact", Value: fmt.Sprint(v), Reason: "must be true or a name"}
	}
	if q.NameRegex != "" {
		if err := checkPattern("nameRegex", q.NameRegex); err != nil {
			return err
		}
	}
	if q.Level < 0 || q.Level > 6 {
		return &invalid.Option{Field: "level", Value: fmt.Sprint(q.Level), Reason: "must be a heading level from 1 to 6"}
	}
	return nonNegative(map[string]int{"limit": q.Limit})
}

// RoleResult is what a role query returns: the total, and unless
// CountOnly, the first Limit results with their refs.
type RoleResult struct {
	Total   int         `json:"total"`
	Results []RoleMatch `json:"results,omitempty"`
	// FramesNotSearched counts the shown frames of the document, whose
	// content the query does not reach (snapshotSearch's includeFrames
	// does).
	FramesNotSearched int `json:"framesNotSearched,omitempty"`

	// LastSnapshot and LastElement: as in Result.
	LastSnapshot int `json:"-"`
	LastElement  int `json:"-"`
}

// RoleMatch is one element found, with the states it has. Checked is
// true, false or "mixed" on checkable roles; Pressed is true or "mixed".
type RoleMatch struct {
	Ref  string `json:"ref"`
	Role string `json:"role"`
	Name string `json:"name,omitempty"`
	// Text is what it shows, when its name does not say it (a list
	// item's or a row's content); fields have Value instead.
	Text     string  `json:"text,omitempty"`
	Checked  any     `json:"checked,omitempty"`
	Disabled bool    `json:"disabled,omitempty"`
	Expanded *bool   `json:"expanded,omitempty"`
	Pressed  any     `json:"pressed,omitempty"`
	Selected bool    `json:"selected,omitempty"`
	Level    int     `json:"level,omitempty"`
	Value    *string `json:"value,omitempty"`
}

// QueryRoles runs a role query on p's top document. Each result gets a
// ref (an element that has one keeps it), under the current snapshot
// number.
func QueryRoles(ctx context.Context, p *page.Page, q RoleQuery) (*RoleResult, error) {
	if err := q.Validate(); err != nil {
		return nil, err
	}
	in := map[string]any{
		"roles": q.AllRoles(), "name": q.Name, "nameRegex": q.NameRegex,
		"level": q.Level, "countOnly": q.CountOnly, "limit": q.Limit,
		"snapshotFloor": q.SnapshotFloor, "elementFloor": q.ElementFloor,
	}
	if exact, ok := q.exactName(); ok {
		in["nameExact"], in["name"] = exact, ""
	}
	if q.Checked != nil {
		in["checked"] = *q.Checked
	}
	if q.Disabled != nil {
		in["disabled"] = *q.Disabled
	}
	var res struct {
		RoleResult
		jsError
		LastSnapshot int `json:"lastSnapshot"`
		LastElement  int `json:"lastElement"`
	}
	page.ExposeClickHandlers(ctx, p)
	if err := p.CallJS(ctx, js.Query(), &res, in); err != nil {
		return nil, fmt.Errorf("aria: query: %w", err)
	}
	switch res.Error {
	case "":
	case "invalidPattern":
		return nil, &invalid.Pattern{Field: "nameRegex", Pattern: q.NameRegex, Reason: res.Message}
	default:
		return nil, fmt.Errorf("aria: query: %s: %s", res.Error, res.Message)
	}
	out := res.RoleResult
	out.LastSnapshot, out.LastElement = res.LastSnapshot, res.LastElement
	return &out, nil
}
