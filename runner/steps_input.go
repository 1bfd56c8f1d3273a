package runner

// inputSteps drive the keyboard and the mouse beyond click and fill.
var inputSteps = []step{}
