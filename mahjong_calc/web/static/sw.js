// The site's service worker (`mjcalc site build` puts the build's file list before this as self.SITE):
// every file of the site is kept, so that after the first visit the page opens and scores offline.
const CACHE = `mjcalc-${self.SITE.build}`;

importScripts("static/unpack.js");

// every file, and those the site ships gzipped (SITE.unpacked: the WebAssembly) also unpacked under their own
// name: the engine's worker gets them so, and the browser keeps their compiled code with them for the next start
self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then(async (cache) => {
    await cache.addAll(self.SITE.files);
    for (const name of self.SITE.unpacked || []) await cache.put(name, await self.mjcalcUnpacked(await cache.match(`${name}.gz`), "application/wasm"));
  }).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((k) => k.startsWith("mjcalc-") && k !== CACHE).map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  if (event.request.method !== "GET") return;
  event.respondWith(caches.open(CACHE).then(async (cache) => (await cache.match(event.request, { ignoreSearch: true })) || fetch(event.request)));
});
