package runner

// Update is the -update flag (docs_test.go) for the external tests' golden
// files: a test binary defines a flag once.
var Update = update
