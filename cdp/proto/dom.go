package proto

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
