package query_test

import (
	"testing"

	"github.com/cdpskill/cdpskill/internal/testbrowser"
)

// browser is the one Chromium shared by this package's tests.
var browser *testbrowser.Browser

func TestMain(m *testing.M) { testbrowser.Main(m, &browser) }
