// idbDelete deletes the databases named of the document's origin: those
// a load made where there were none, taken back when a later part of it
// failed.
async function idbDelete(names) {
  await Promise.all(names.map((name) => new Promise((resolve, reject) => {
    const request = indexedDB.deleteDatabase(name);
    request.onsuccess = () => resolve();
    request.onerror = () => reject(request.error);
    request.onblocked = () => reject(new Error('database ' + JSON.stringify(name) +
      ' is open in another tab of this browser context, which does not let it go'));
  })));
}
