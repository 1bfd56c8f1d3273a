package aria_test

import (
	"errors"
	"testing"

	"github.com/cdpskill/cdpskill/aria"
)

// validator is what every option type offers the runner's decoders.
type validator interface{ Validate() error }

func TestValidate(t *testing.T) {
	neg := -1
	cases := []struct {
		name string
		v    validator
		ok   bool
	}{
		{"snapshot defaults", aria.Options{}, true},
		{"since", aria.Options{Since: "s12"}, true},
		{"since not an id", aria.Options{Since: "12"}, false},
		{"since a ref", aria.Options{Since: "s1e2"}, false},
		{"inlineLimit negative", aria.Options{InlineLimit: -5}, false},
		{"search text", aria.SearchOptions{Text: "x"}, true},
		{"search near only", aria.SearchOptions{Near: &aria.Near{X: 1, Y: 2}}, true},
		{"search nothing", aria.SearchOptions{Limit: 3}, false},
		{"search exact without text", aria.SearchOptions{Role: "button", Exact: true}, false},
		{"search bad pattern", aria.SearchOptions{Pattern: "[a-"}, false},
		{"search lookahead left to the page", aria.SearchOptions{Pattern: "a(?=b)"}, true},
		{"search (?i)", aria.SearchOptions{Pattern: "(?i)abc"}, true},
		{"search negative context", aria.SearchOptions{Text: "x", Context: &neg}, false},
		{"search negative radius", aria.SearchOptions{Near: &aria.Near{Radius: -1}}, false},
		{"query role", aria.RoleQuery{Role: "button"}, true},
		{"query roles", aria.RoleQuery{Roles: []string{"link", "Button"}}, true},
		{"query no role", aria.RoleQuery{Name: "x"}, false},
		{"query bad role", aria.RoleQuery{Role: "button[x]"}, false},
		{"query exact flag without name", aria.RoleQuery{Role: "button", NameExact: true}, false},
		{"query exact name", aria.RoleQuery{Role: "button", NameExact: "OK"}, true},
		{"query exact number", aria.RoleQuery{Role: "button", NameExact: 3.0}, false},
		{"query level", aria.RoleQuery{Role: "heading", Level: 7}, false},
		{"query bad regex", aria.RoleQuery{Role: "link", NameRegex: "(a"}, false},
		{"query negative limit", aria.RoleQuery{Role: "link", Limit: -1}, false},
	}
	for _, c := range cases {
		err := c.v.Validate()
		if (err == nil) != c.ok {
			t.Errorf("%s: Validate() = %v, want ok=%v", c.name, err, c.ok)
			continue
		}
		if err == nil {
			continue
		}
		var named interface{ ErrorName() string }
		if !errors.As(err, &named) || named.ErrorName() != "StepValidationError" {
			t.Errorf("%s: %v is not a StepValidationError", c.name, err)
		}
	}
}
