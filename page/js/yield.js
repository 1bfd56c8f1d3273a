// Lets the page run what an action set in motion before anyone looks for
// its effects: the rendering of the next frame (a framework's state update
// commits by then) and one task after it (a scheduled form submission, a
// router's next step). A busy page takes longer to answer, which is the
// point: the wait for effects then starts later, when the page has caught
// up. A tab that renders no frames (hidden) is bounded by a timer.
function yieldToPage() {
  return new Promise((done) => {
    const t = setTimeout(done, 100);
    requestAnimationFrame(() => setTimeout(() => { clearTimeout(t); done(); }, 0));
  });
}
