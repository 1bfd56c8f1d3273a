package js

import (
	"testing"

	"github.com/cdpskill/cdpskill/internal/jsfiles"
)

// Every file is one function expression, so that Compose can paste it
// between parentheses, and stays readable in size.
func TestOneFunctionPerFile(t *testing.T) { jsfiles.CheckShape(t, 6, 450) }
