// Lets the page run the tasks an action queued (a scheduled form
// submission, a router's next step) before anyone looks for their
// effects. A busy page takes longer to answer, which is the point: the
// wait for effects then starts later, when the page has caught up.
function () {
  return new Promise((done) => setTimeout(done, 0));
}
