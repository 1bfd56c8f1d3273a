package dom

// DragSettled reports whether the page was found settled each time the
// drag waited for it, rather than waited on to the bound.
func DragSettled(r *DragResult) bool { return r.settled }
