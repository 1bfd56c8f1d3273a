package capture

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"image/jpeg"
	"image/png"
)

// imageSize reads an image's width and height from its header.
func imageSize(format string, data []byte) (w, h int, err error) {
	switch format {
	case "png":
		c, err := png.DecodeConfig(bytes.NewReader(data))
		return c.Width, c.Height, wrapImageErr(err)
	case "jpeg":
		c, err := jpeg.DecodeConfig(bytes.NewReader(data))
		return c.Width, c.Height, wrapImageErr(err)
	case "webp":
		return webpSize(data)
	}
	return 0, 0, fmt.Errorf("capture: unknown image format %q", format)
}

func wrapImageErr(err error) error {
	if err != nil {
		return fmt.Errorf("capture: Chrome sent an unreadable image: %w", err)
	}
	return nil
}

// webpSize reads the canvas size of the three WebP kinds: lossy (VP8),
// lossless (VP8L) and extended (VP8X). The standard library has no WebP
// decoder, and the header is all that is needed.
func webpSize(d []byte) (w, h int, err error) {
	if len(d) < 30 || string(d[:4]) != "RIFF" || string(d[8:12]) != "WEBP" {
		return 0, 0, fmt.Errorf("capture: Chrome sent an unreadable WebP image")
	}
	le24 := func(b []byte) int { return int(b[0]) | int(b[1])<<8 | int(b[2])<<16 }
	switch string(d[12:16]) {
	case "VP8 ":
		return int(binary.LittleEndian.Uint16(d[26:]) & 0x3fff), int(binary.LittleEndian.Uint16(d[28:]) & 0x3fff), nil
	case "VP8L":
		b := binary.LittleEndian.Uint32(d[21:])
		return int(b&0x3fff) + 1, int(b>>14&0x3fff) + 1, nil
	case "VP8X":
		return le24(d[24:]) + 1, le24(d[27:]) + 1, nil
	}
	return 0, 0, fmt.Errorf("capture: unknown WebP chunk %q", d[12:16])
}
