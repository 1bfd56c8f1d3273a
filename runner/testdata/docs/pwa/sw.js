// A network-first worker: it answers from the network and, when that
// fails, from the shell it cached at install. What it cannot answer from
// its cache (the API) fails offline, as it should.
const SHELL = 'shell-v1';

self.addEventListener('install', (event) => {
  console.log('install: caching the shell');
  event.waitUntil(caches.open(SHELL).then((cache) => cache.addAll(['./', 'app.css'])));
});

self.addEventListener('activate', (event) => {
  console.log('activate');
  event.waitUntil(self.clients.claim());
});

self.addEventListener('fetch', (event) => {
  const path = new URL(event.request.url).pathname;
  console.log('fetch ' + path);
  event.respondWith(fetch(event.request).catch((err) => caches.match(event.request).then((hit) => {
    if (!hit) throw err;
    console.warn('offline: served ' + path + ' from the cache');
    return hit;
  })));
});
