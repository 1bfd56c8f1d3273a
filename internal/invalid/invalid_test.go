package invalid

import (
	"errors"
	"testing"
)

func TestMessages(t *testing.T) {
	for _, c := range []struct {
		err  error
		want string
	}{
		{&Selector{Selector: "div >", Reason: "it ends with \">\""}, `invalid CSS selector "div >": it ends with ">"`},
		{&Selector{Field: "snapshot root", Selector: "[[", Reason: "bad"}, `snapshot root "[[" is not a valid CSS selector: bad`},
		{&Pattern{Pattern: "(a", Reason: "bad"}, `invalid regular expression "(a": bad`},
		{&Pattern{Field: "nameRegex", Pattern: "(a", Reason: "bad"}, `nameRegex "(a" is not a valid regular expression: bad`},
		{&Option{Field: "quality", Value: "101", Reason: "must be between 0 and 100"}, `invalid quality "101": must be between 0 and 100`},
		{&Option{Field: "key", Reason: "empty key"}, `key: empty key`},
	} {
		if got := c.err.Error(); got != c.want {
			t.Errorf("got %s, want %s", got, c.want)
		}
		var named interface{ ErrorName() string }
		if !errors.As(c.err, &named) || named.ErrorName() != "StepValidationError" {
			t.Errorf("%T is no StepValidationError", c.err)
		}
	}
}

func TestCompile(t *testing.T) {
	if re, err := Compile("f", "^a+$"); err != nil || !re.MatchString("aa") {
		t.Fatalf("Compile: %v", err)
	}
	_, err := Compile("textRegex", "(a")
	var pe *Pattern
	if !errors.As(err, &pe) || pe.Field != "textRegex" || pe.Reason != "missing closing ): (a" {
		t.Errorf("got %v", err)
	}
}
