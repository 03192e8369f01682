/* The revisor's service worker (served at /r/sw.js over HTTPS only, scope /r/; views/revisor/worker.py).
 * The card's page opens with no connection: a page of /r/card/ comes from the network and is
 * kept; with no network the kept one is shown, and the hands recorded then are queued on the
 * device (static/js/revisor-queue.js). Scripts and styles are kept as they are fetched.
 * Everything else (polls, posts) goes to the network as it would without this worker. */
"use strict";
var CACHE = "revisor-card-{{ version }}";
var CARD = "{{ card_url }}";

self.addEventListener("install", function () { self.skipWaiting(); });
self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) { return name.indexOf("revisor-card-") === 0 && name !== CACHE; })
      .map(function (name) { return caches.delete(name); }));
  }).then(function () { return self.clients.claim(); }));
});

function kept(request, response) {
  if (response && response.ok && response.type === "basic") {
    var copy = response.clone();
    caches.open(CACHE).then(function (cache) { cache.put(request, copy); });
  }
  return response;
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate" && url.pathname === CARD) {
    event.respondWith(fetch(request).then(function (response) {
      return kept(CARD, response);
    }, function () {
      return caches.match(CARD).then(function (page) { return page || Response.error(); });
    }));
  } else if (url.pathname.indexOf("{{ static_url }}") === 0) {
    event.respondWith(caches.match(request).then(function (hit) {
      var fresh = fetch(request).then(function (response) { return kept(request, response); });
      return hit || fresh;
    }));
  }
});
