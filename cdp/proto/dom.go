package proto

import "context"

// Node is what DOM.describeNode tells of a node (DOM.Node), the parts
// cdpskill reads.
type Node struct {
	// FrameID is, for a frame element (<iframe>, <frame>), the frame it
	// holds; empty while it holds no document yet.
	FrameID string `json:"frameId"`
}

// BoxModel is a node's boxes (DOM.BoxModel), the parts cdpskill reads.
type BoxModel struct {
	// Content is the content box as a quad, x1 y1 … x4 y4 clockwise from
	// the top left, in CSS pixels of the node's frame's viewport.
	Content []float64 `json:"content"`
}

// DOMDescribeNode describes a node without the DOM domain enabled or a
// document requested first: a node is named by its remote object.
type DOMDescribeNode struct {
	ObjectID string `json:"objectId,omitempty"`
}

type DOMDescribeNodeResult struct {
	Node Node `json:"node"`
}

func (p DOMDescribeNode) Do(ctx context.Context, c Caller) (DOMDescribeNodeResult, error) {
	return call[DOMDescribeNodeResult](ctx, c, "DOM.describeNode", p)
}

// DOMGetFrameOwner finds the element that holds a frame, asked of the
// session of the frame's parent document: for an out-of-process frame,
// the page's frame element in the parent's process.
type DOMGetFrameOwner struct {
	FrameID string `json:"frameId"`
}

type DOMGetFrameOwnerResult struct {
	// BackendNodeID names the element without the DOM domain enabled.
	BackendNodeID int `json:"backendNodeId"`
}

func (p DOMGetFrameOwner) Do(ctx context.Context, c Caller) (DOMGetFrameOwnerResult, error) {
	return call[DOMGetFrameOwnerResult](ctx, c, "DOM.getFrameOwner", p)
}

// DOMGetNodeForLocation is the node the renderer of the session's
// document hits at a point of its viewport, passing through elements
// with pointer-events: none as input does: for a point over a frame
// rendered by another process, the frame's element.
type DOMGetNodeForLocation struct {
	X int `json:"x"`
	Y int `json:"y"`
}

type DOMGetNodeForLocationResult struct {
	BackendNodeID int `json:"backendNodeId"`
}

func (p DOMGetNodeForLocation) Do(ctx context.Context, c Caller) (DOMGetNodeForLocationResult, error) {
	return call[DOMGetNodeForLocationResult](ctx, c, "DOM.getNodeForLocation", p)
}

// DOMScrollIntoViewIfNeeded scrolls a node into its document's view,
// scrolling documents of any origin, which the page's own code cannot.
type DOMScrollIntoViewIfNeeded struct {
	BackendNodeID int `json:"backendNodeId,omitempty"`
}

func (p DOMScrollIntoViewIfNeeded) Do(ctx context.Context, c Caller) error {
	return run(ctx, c, "DOM.scrollIntoViewIfNeeded", p)
}

// DOMGetBoxModel reads a node's boxes; it fails for a node that renders
// none (display: none, detached).
type DOMGetBoxModel struct {
	BackendNodeID int `json:"backendNodeId,omitempty"`
}

type DOMGetBoxModelResult struct {
	Model BoxModel `json:"model"`
}

func (p DOMGetBoxModel) Do(ctx context.Context, c Caller) (DOMGetBoxModelResult, error) {
	return call[DOMGetBoxModelResult](ctx, c, "DOM.getBoxModel", p)
}

// DOMSetFileInputFiles sets the files of an <input type=file>, as a
// user's choice in the file dialog does: the page gets input and change
// events. The paths are the browser's: a remote browser reads its own
// disk.
type DOMSetFileInputFiles struct {
	Files    []string `json:"files"`
	ObjectID string   `json:"objectId,omitempty"`
}

func (p DOMSetFileInputFiles) Do(ctx context.Context, c Caller) error {
	return run(ctx, c, "DOM.setFileInputFiles", p)
}

// RGBA is a color (DOM.RGBA): R, G and B 0 to 255, A 0 to 1.
type RGBA struct {
	R int `json:"r"`
	G int `json:"g"`
	B int `json:"b"`
	// A is sent even when 0 (transparent): its default is 1.
	A float64 `json:"a"`
}

// Rect is a rectangle (DOM.Rect).
type Rect struct {
	X      float64 `json:"x"`
	Y      float64 `json:"y"`
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
}
