// marks lists the interactive elements a screenshot shows, with their refs
// and the part of their boxes on screen (boxes.js), for an annotated
// screenshot. The refs are the report's (report.js): handed out under the
// current snapshot number, every earlier one kept, so a label is the ref
// the agent's snapshots show. Same-origin frames are walked in place
// (their refs name their frame, as a snapshot's with includeFrames); a
// cross-origin frame's content is not, which only its own session could
// read.
//
// opts: {clip: {x, y, width, height}, snapshotFloor, elementFloor}, clip
//       being the captured part of this window, in its viewport's CSS px
// returns {marks: [{ref, role, name, x, y, width, height}], lastSnapshot,
//          lastElement}
function marks(lib, opts) {
  'use strict';
  const R = lib.roles();
  const P = lib.places(R);
  const V = lib.view();
  let clip = opts.clip;
  // A frame shows no more of its document than its window.
  if (window !== window.parent) clip = within(clip, innerWidth, innerHeight);
  const W = lib.walk(R, lib.states(R), V, { viewportOnly: true, includeFrames: true, clip });
  const refs = lib.refs({ snapshotFloor: opts.snapshotFloor, elementFloor: opts.elementFloor, bump: false }, P);
  const nodes = W.tree(document.body || document.documentElement);
  refs.assign(nodes, [], W);
  return Object.assign({ marks: lib.boxes(V, clip).marks(nodes, W) }, refs.counters());

  function within(c, w, h) {
    const x = Math.max(c.x, 0), y = Math.max(c.y, 0);
    return { x, y, width: Math.max(0, Math.min(c.x + c.width, w) - x), height: Math.max(0, Math.min(c.y + c.height, h) - y) };
  }
}
