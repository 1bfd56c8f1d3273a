// fingerprint is what snapshot's since compares (hash.js): a hash of the
// page that any change to its DOM, a field's value, the scroll position or
// the viewport alters. The first call starts the count of DOM changes.
function fingerprint(lib) {
  'use strict';
  return lib.hash().current();
}
