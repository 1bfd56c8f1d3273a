package dom_test

import (
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/cdpskill/cdpskill/dom"
	"github.com/cdpskill/cdpskill/internal/invalid"
)

func TestParseTarget(t *testing.T) {
	cases := []struct {
		in   string
		want dom.Target
	}{
		{"s1e4", dom.Target{Ref: "s1e4"}},
		{"s12e345", dom.Target{Ref: "s12e345"}},
		{"#s1e4", dom.Target{Selector: "#s1e4"}},
		{"s1e", dom.Target{Selector: "s1e"}},
		{"se4", dom.Target{Selector: "se4"}},
		{" s1e4", dom.Target{Selector: " s1e4"}},
		{"button.primary", dom.Target{Selector: "button.primary"}},
		{"", dom.Target{}},
	}
	for _, c := range cases {
		if got := dom.ParseTarget(c.in); !reflect.DeepEqual(got, c.want) {
			t.Errorf("ParseTarget(%q) = %+v, want %+v", c.in, got, c.want)
		}
	}
}

// The runner classifies by ErrorName through errors.As, so each error
// must name its SPEC 16.2 subtype even when wrapped.
func TestErrorNames(t *testing.T) {
	blocked := func(reason error) error {
		return &dom.ActionabilityError{Target: dom.ParseTarget("#x"), Action: dom.ActionClick, Reason: reason}
	}
	cases := []struct {
		err  error
		want string
	}{
		{&dom.NotFoundError{Target: dom.ParseTarget("#x")}, "ElementNotFoundError"},
		{&dom.StaleElementError{Ref: "s1e1"}, "StaleElementError"},
		{&invalid.Selector{Selector: "[["}, "StepValidationError"},
		{blocked(&dom.NotEditableError{Reason: "readonly"}), "ElementNotEditableError"},
		{blocked(&dom.DetachedError{}), "StaleElementError"},
		{blocked(&dom.CoveredError{}), "TimeoutError"},
		{&dom.TimeoutError{Err: errors.New("deadline"), Last: blocked(&dom.CoveredError{})}, "TimeoutError"},
		{&dom.TimeoutError{Err: errors.New("deadline"), Last: &dom.NotFoundError{}}, "ElementNotFoundError"},
		{&dom.TimeoutError{Err: errors.New("deadline"), Last: &dom.StaleElementError{}}, "StaleElementError"},
	}
	for _, c := range cases {
		var named interface{ ErrorName() string }
		wrapped := fmt.Errorf("step 1: %w", c.err)
		if !errors.As(wrapped, &named) || named.ErrorName() != c.want {
			t.Errorf("%T: ErrorName = %v, want %s", c.err, named, c.want)
		}
	}
}

func TestInterceptorString(t *testing.T) {
	i := dom.Interceptor{Tag: "div", ID: "cc", Class: "a b c d", Text: "We use cookies", Kind: "cookie-banner"}
	if got, want := i.String(), `div#cc.a.b.c "We use cookies" (cookie-banner)`; got != want {
		t.Errorf("String() = %s, want %s", got, want)
	}
}
