package keeper

import (
	"context"
	"errors"
	"fmt"
	"image"
	"image/jpeg"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/cdpskill/cdpskill/internal/private"
)

// A video's frames are kept on disk as they come, one JPEG file each,
// named by number and time (framesDir): a long recording holds no memory,
// and what a keeper kept before it died is still there for the call that
// stops the recording. The video is written from them at the end.

// Bounds on a video.
const (
	// frameGap keeps at most 10 frames a second: a page that animates
	// sends 60.
	frameGap = 100 * time.Millisecond
	// maxFrames and maxFrameBytes bound the frames kept: about 5 minutes
	// of a page that never stops moving.
	maxFrames     = 3000
	maxFrameBytes = 200 << 20
	// maxVideoBytes bounds the GIF.
	maxVideoBytes = 64 << 20
)

func framesDir(dir string) string { return filepath.Join(dir, "frames") }

// frameKeeper keeps a screencast's frames. A frame that comes sooner than
// frameGap after the last one kept waits: the next one supersedes it,
// but if none comes within frameGap it is what the page showed, and is
// kept too.
type frameKeeper struct {
	temp  private.Temp
	dir   string
	start time.Time
	n     int
	bytes int64
	last  int64 // ms, the last frame kept
	// pending is a frame that came too soon, and when.
	pending   []byte
	pendingAt int64
	// cut says why frames stopped being kept; err is the first write
	// that failed.
	cut string
	err error
}

// add takes a frame the page showed at ms.
func (f *frameKeeper) add(data []byte, ms int64) {
	if f.pending != nil && ms-f.pendingAt >= frameGap.Milliseconds() {
		f.keep(f.pending, f.pendingAt)
	}
	f.pending = nil
	if f.n > 0 && ms-f.last < frameGap.Milliseconds() {
		f.pending, f.pendingAt = data, ms
		return
	}
	f.keep(data, ms)
}

// flush keeps the frame that waits, at the end.
func (f *frameKeeper) flush() {
	if f.pending != nil {
		f.keep(f.pending, f.pendingAt)
		f.pending = nil
	}
}

func (f *frameKeeper) keep(data []byte, ms int64) {
	if f.cut != "" || f.err != nil {
		return
	}
	if f.n >= maxFrames || f.bytes+int64(len(data)) > maxFrameBytes {
		at := time.UnixMilli(ms).Sub(f.start).Round(time.Second)
		f.cut = fmt.Sprintf("the video stops %v into the recording: it keeps at most %d frames (%d MB)", at, maxFrames, maxFrameBytes>>20)
		return
	}
	f.n++
	name := fmt.Sprintf("%06d-%d.jpg", f.n, ms)
	if err := f.temp.WriteFile(filepath.Join(f.dir, name), data); err != nil {
		f.err = err
		return
	}
	f.bytes += int64(len(data))
	f.last = ms
}

// frameFile is a kept frame: its file and when the page showed it.
type frameFile struct {
	path string
	n    int
	ms   int64
}

// keptFrames lists the frames in dir, in order.
func keptFrames(dir string) []frameFile {
	entries, _ := os.ReadDir(dir) // none: no frames
	var out []frameFile
	for _, e := range entries {
		num, at, ok := strings.Cut(strings.TrimSuffix(e.Name(), ".jpg"), "-")
		n, err1 := strconv.Atoi(num)
		ms, err2 := strconv.ParseInt(at, 10, 64)
		if ok && err1 == nil && err2 == nil {
			out = append(out, frameFile{filepath.Join(dir, e.Name()), n, ms})
		}
	}
	slices.SortFunc(out, func(a, b frameFile) int { return a.n - b.n })
	return out
}

// writeVideo writes the frames kept in dir as an animated GIF at path,
// its last frame shown until end, within ctx: what it could not write in
// time, or over maxVideoBytes, is cut, and a note says so. No frames, no
// file: a note says why.
func writeVideo(ctx context.Context, temp private.Temp, dir, path string, end time.Time) (*RecordedFile, []string, error) {
	frames := keptFrames(framesDir(dir))
	if len(frames) == 0 {
		return nil, []string{"the page rendered no frame while the video recorded, so no video was written: " +
			"Chrome sends a frame only when what the tab shows changes"}, nil
	}
	w, h := 0, 0
	for _, f := range frames {
		if c, err := frameConfig(temp, f.path); err == nil {
			w, h = max(w, c.Width), max(h, c.Height)
		}
	}
	if w == 0 {
		return nil, []string{"the video's frames could not be read, so no video was written"}, nil
	}
	var notes []string
	endMs := max(end.UnixMilli(), frames[len(frames)-1].ms)
	shown := 0
	err := temp.WriteFrom(path, func(out io.Writer) error {
		g := newGIF(out, w, h)
		for i, f := range frames {
			if cut := cutWhy(ctx, g); cut != "" && i > 0 { // a video has a frame at least
				endMs = f.ms
				notes = append(notes, fmt.Sprintf("the video is cut %v in, %s",
					time.Duration(f.ms-frames[0].ms)*time.Millisecond, cut))
				break
			}
			file, err := temp.Open(f.path)
			if err != nil {
				continue
			}
			img, err := jpeg.Decode(file)
			file.Close()
			if err != nil {
				continue // a frame half written when its keeper died
			}
			g.add(img, f.ms)
		}
		if g.pending == nil {
			return errUnreadable
		}
		err := g.close(endMs)
		shown = g.frames
		return err
	})
	if errors.Is(err, errUnreadable) {
		return nil, append(notes, "the video's frames could not be read, so no video was written"), nil
	}
	if err != nil {
		return nil, notes, err
	}
	fi, err := os.Stat(path)
	if err != nil {
		return nil, notes, err
	}
	secs := float64(endMs-frames[0].ms) / 1000
	return &RecordedFile{Path: path, Size: fi.Size(), Seconds: roundSeconds(secs), Frames: shown}, notes, nil
}

// errUnreadable: not one frame could be read.
var errUnreadable = errors.New("no frame could be read")

// cutWhy says why the video must stop before its next frame, if it must.
func cutWhy(ctx context.Context, g *gifWriter) string {
	switch {
	case ctx.Err() != nil:
		return "as writing it ran out of the step's time (give the stop step a longer \"timeout\")"
	case g.size() > maxVideoBytes:
		return fmt.Sprintf("as it reached %d MB", maxVideoBytes>>20)
	}
	return ""
}

func frameConfig(temp private.Temp, path string) (image.Config, error) {
	f, err := temp.Open(path)
	if err != nil {
		return image.Config{}, err
	}
	defer f.Close()
	return jpeg.DecodeConfig(f)
}

// roundSeconds keeps a tenth of a second.
func roundSeconds(s float64) float64 { return float64(int64(s*10+0.5)) / 10 }
