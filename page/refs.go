package page

import (
	"context"
	"crypto/rand"
	_ "embed"
	"encoding/hex"
	"fmt"
)

var (
	//go:embed js/refs_receive.js
	refsReceiveJS string
	//go:embed js/refs_send.js
	refsSendJS string
)

// ShareRefs copies the helper world's refs into the main world's
// window.__ariaRefs, for agent code that asks for them (pageFunction's
// refs, a pipeline's ref targets). The copy is the page's to see and is
// current only until the next snapshot.
func ShareRefs(ctx context.Context, p *Page) error {
	name := "cdpskill-refs-" + Token()
	if err := p.Main().CallJS(ctx, refsReceiveJS, nil, name); err != nil {
		return fmt.Errorf("share refs: %w", err)
	}
	if err := p.CallJS(ctx, refsSendJS, nil, name); err != nil {
		return fmt.Errorf("share refs: %w", err)
	}
	return nil
}

// Token is a random name the page cannot guess: of an event, of a handle
// in-page code keeps between calls of one action.
func Token() string {
	var b [8]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
