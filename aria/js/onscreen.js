// onscreen answers the part of a snapshot on screen that snapshot.js left
// for later under token, or null when it left none (yet): a page that
// lacked snapshot.js ran this call before it.
function onscreen(token) {
  'use strict';
  const later = window.__ariaViewLater;
  if (!later || later.token !== token) return null;
  window.__ariaViewLater = null;
  return later.show();
}
