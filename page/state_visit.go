package page

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/cdpskill/cdpskill/cdp"
	"github.com/cdpskill/cdpskill/cdp/proto"
	"github.com/cdpskill/cdpskill/internal/xcontext"
)

// blankDocument answers every request while a tab visits an origin for
// its storage, so that none of the site's own pages or scripts runs.
var blankDocument = base64.StdEncoding.EncodeToString([]byte("<!doctype html><title></title>"))

// blankVisits opens origins in a tab with every request answered by an
// empty page (Fetch): Chrome reaches an origin's storage only through a
// frame on it, and the site must not run while its storage is read or
// set. Playwright does the same.
type blankVisits struct {
	s      *cdp.Session
	paused *cdp.Listener
	stop   context.CancelFunc
}

// startBlankVisits answers s's requests from now until end or quit,
// whatever becomes of ctx: a visit that takes back a failed load's
// storage comes after the step's time ran out.
func startBlankVisits(ctx context.Context, s *cdp.Session) (*blankVisits, error) {
	v := &blankVisits{s: s, paused: s.Listen(proto.EventFetchRequestPaused)}
	var answer context.Context
	answer, v.stop = context.WithCancel(context.WithoutCancel(ctx))
	go func() {
		for {
			ev, err := v.paused.Next(answer)
			if err != nil {
				return
			}
			var rp proto.FetchRequestPaused
			if json.Unmarshal(ev.Params, &rp) == nil {
				_ = proto.FetchFulfillRequest{RequestID: rp.RequestID, ResponseCode: 200, Body: blankDocument}.Do(answer, s)
			}
		}
	}()
	if err := (proto.FetchEnable{Patterns: []proto.RequestPattern{{URLPattern: "*"}}}).Do(ctx, s); err != nil {
		v.quit()
		return nil, err
	}
	return v, nil
}

// visit opens origin's empty page in the tab.
func (v *blankVisits) visit(ctx context.Context, origin string) error {
	nav, err := proto.PageNavigate{URL: origin + "/"}.Do(ctx, v.s)
	if err == nil && nav.ErrorText != "" {
		err = errors.New(nav.ErrorText)
	}
	return err
}

// end leaves the tab on about:blank with its requests its own again.
func (v *blankVisits) end(ctx context.Context) error {
	defer v.quit()
	_, nerr := proto.PageNavigate{URL: "about:blank"}.Do(ctx, v.s)
	return errors.Join(nerr, proto.FetchDisable{}.Do(ctx, v.s))
}

// quit stops answering, for a tab about to close.
func (v *blankVisits) quit() {
	v.stop()
	v.paused.Close()
}

// scratchCloseWait bounds closing a scratch tab after its work, which
// is done even when the step's time ran out.
const scratchCloseWait = 2 * time.Second

// scratchTab opens a tab of p's browser context (a session's, or the
// default one) in the background, where the origins the tab left can be
// visited without taking it from its page; done closes it.
func scratchTab(ctx context.Context, p *Page) (s *cdp.Session, done func(), err error) {
	b := p.S.Conn().Browser()
	info, err := proto.TargetGetTargetInfo{TargetID: p.S.TargetID}.Do(ctx, b)
	if err != nil {
		return nil, nil, fmt.Errorf("a tab to read storage in: %w", err)
	}
	created, err := proto.TargetCreateTarget{URL: "about:blank", Background: true,
		BrowserContextID: info.TargetInfo.BrowserContextID}.Do(ctx, b)
	if err != nil {
		return nil, nil, fmt.Errorf("a tab to read storage in: %w", err)
	}
	done = func() {
		cctx, cancel := xcontext.Detached(ctx, scratchCloseWait)
		defer cancel()
		_ = proto.TargetCloseTarget{TargetID: created.TargetID}.Do(cctx, b)
	}
	if s, err = proto.Attach(ctx, p.S.Conn(), created.TargetID); err != nil {
		done()
		return nil, nil, fmt.Errorf("a tab to read storage in: %w", err)
	}
	return s, done, nil
}
