// Google sign-in through the Auth emulator, offline. Firebase's popup flow talks to the
// emulator's helper iframe through Google's `gapi.iframes` library, which both sides load
// from apis.google.com; the test machines have no internet. Tests route that script to
// this small stand-in (postMessage between the page and the helper iframe), so the app's
// real signInWithPopup and the emulator's real account-chooser page run unchanged. Other
// internet requests of the emulator's page (its stylesheet and icon fonts) are aborted.
import type { BrowserContext } from 'playwright-core';

const GAPI_SHIM = String.raw`
(function () {
  if (window.gapi && window.gapi.iframes) return;
  var KEY = '__stockroomGapiShim';
  var FILTER = function () { return true; };
  var channels = [];
  var seq = 0;

  function Channel(target) {
    this.win = target;
    this.handlers = {};
    this.queued = {};
    this.replies = {};
    channels.push(this);
  }
  Channel.prototype.post = function (message) {
    message[KEY] = message.kind;
    this.win.postMessage(message, '*');
  };
  Channel.prototype.answer = function (call) {
    var result;
    try {
      result = this.handlers[call.name](call.payload);
    } catch (e) {
      result = { status: 'ERROR' };
    }
    this.post({ kind: 'reply', id: call.id, responses: [result] });
  };
  Channel.prototype.register = function (name, handler) {
    this.handlers[name] = handler;
    var waiting = this.queued[name] || [];
    delete this.queued[name];
    for (var i = 0; i < waiting.length; i++) this.answer(waiting[i]);
  };
  Channel.prototype.send = function (name, payload, callback) {
    var id = 'c' + ++seq + '-' + Math.random();
    this.replies[id] = callback || function () {};
    this.post({ kind: 'call', id: id, name: name, payload: payload });
  };
  Channel.prototype.restyle = function () {
    return Promise.resolve();
  };
  Channel.prototype.ping = function (callback) {
    var self = this;
    return new Promise(function (resolve) {
      var id = 'p' + ++seq;
      self.replies[id] = function () {
        resolve();
        if (callback) callback();
      };
      var tries = 0;
      (function tick() {
        if (!self.replies[id] || tries++ > 150) return;
        try {
          self.post({ kind: 'ping', id: id });
        } catch (e) {}
        setTimeout(tick, 100);
      })();
    });
  };

  window.addEventListener('message', function (event) {
    var data = event.data;
    if (!data || typeof data !== 'object' || !data[KEY]) return;
    if (data.kind === 'ping') {
      event.source.postMessage({ __stockroomGapiShim: 'pong', kind: 'pong', id: data.id }, '*');
      return;
    }
    var channel = null;
    for (var i = 0; i < channels.length; i++) if (channels[i].win === event.source) channel = channels[i];
    if (!channel) return;
    if (data.kind === 'pong' || data.kind === 'reply') {
      var callback = channel.replies[data.id];
      delete channel.replies[data.id];
      // Like gapi, a throwing callback doesn't escape (Firebase throws after answering).
      try {
        if (callback) callback(data.responses);
      } catch (e) {}
    } else if (data.kind === 'call') {
      if (channel.handlers[data.name]) channel.answer(data);
      else (channel.queued[data.name] = channel.queued[data.name] || []).push(data);
    }
  });

  var parentChannel = window.parent !== window ? new Channel(window.parent) : null;
  var context = {
    open: function (options, callback) {
      var frame = document.createElement('iframe');
      var attributes = options.attributes || {};
      Object.keys(attributes).forEach(function (name) {
        if (name === 'style') Object.assign(frame.style, attributes.style);
        else frame.setAttribute(name, attributes[name]);
      });
      frame.src = options.url;
      (options.where || document.body).appendChild(frame);
      return callback(new Channel(frame.contentWindow));
    },
    getParentIframe: function () {
      return parentChannel;
    },
  };
  window.gapi = {
    load: function (_name, options) {
      setTimeout(function () {
        (typeof options === 'function' ? options : options.callback)();
      });
    },
    iframes: { Iframe: function () {}, CROSS_ORIGIN_IFRAMES_FILTER: FILTER, getContext: function () { return context; } },
  };

  var src = (document.currentScript && document.currentScript.src) || '';
  var onload = /[?&]onload=([^&]+)/.exec(src);
  if (onload && typeof window[onload[1]] === 'function') setTimeout(window[onload[1]]);
  if (typeof window.gapi_onload === 'function') setTimeout(window.gapi_onload);
})();
`;

/**
 * Chromium switches for a browser whose contexts may rewrite document headers (see
 * allowPopupReplies): a rewritten response loses its loopback address, and Chromium's
 * local-network checks would then block the emulator's helper iframe.
 */
export const POPUP_TEST_BROWSER_ARGS = [
  '--disable-features=LocalNetworkAccessChecks,PrivateNetworkAccessSendPreflights,PrivateNetworkAccessRespectPreflightResults',
];

/** Routes apis.google.com's gapi loader to the stand-in and aborts the emulator page's CDN requests. */
export async function installGapiShim(context: BrowserContext): Promise<void> {
  await context.route(/^https:\/\/apis\.google\.com\/js\/api\.js/, (route) =>
    route.fulfill({ status: 200, contentType: 'application/javascript', body: GAPI_SHIM }),
  );
  await context.route(/^https:\/\/(unpkg\.com|fonts\.googleapis\.com|fonts\.gstatic\.com)\//, (route) => route.abort());
}
