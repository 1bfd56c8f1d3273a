package dom

// Note is what the agent should know about an action that went through:
// a forced click, a value the page reformatted, a key nothing took. The
// result of an action embeds it; the runner reports it as the step's
// warning, beside the output rather than in it.
type Note struct {
	Warning string `json:"-"`
}

// StepWarning is the note's warning for the step.
func (n Note) StepWarning() string { return n.Warning }
