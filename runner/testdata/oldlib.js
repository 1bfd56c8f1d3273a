// What MooTools- and Prototype.js-era libraries, and some polyfills, did
// to the built-ins of every page that loaded them: each change below is
// one they made, or one a page made on its own.
(function () {
  // Prototype.js's $A: array-likes only; iterables (Map, Set) come back empty.
  Array.from = function (it) {
    var out = [];
    for (var i = 0; i < (it && it.length || 0); i++) out.push(it[i]);
    return out;
  };
  // Prototype.js 1.6: arrays serialise themselves, so JSON.stringify([1])
  // is "\"[1]\"" (a string, doubly encoded).
  Array.prototype.toJSON = function () { return '[' + this.join(',') + ']'; };
  // Prototype.js's bind, without new.target and with curried arguments.
  Function.prototype.bind = function (ctx) {
    var fn = this, args = Array.prototype.slice.call(arguments, 1);
    return function () { return fn.apply(ctx, args.concat(Array.prototype.slice.call(arguments))); };
  };
  // MooTools: methods added to every element.
  Element.prototype.getElements = function (sel) { return this.querySelectorAll(sel); };
  Element.prototype.hide = function () { this.style.display = 'none'; return this; };
  Element.prototype.select = function () { return this.getElements('*'); };
  // A page's own JSON, a polyfill's Object.keys and a "helpful" contains.
  window.JSON = { parse: function () { throw new TypeError("Cannot read properties of undefined (reading 'indexOf')"); },
                  stringify: function () { return 'null'; } };
  Object.keys = function () { return ['$family']; };
  Node.prototype.contains = function () { return false; };
  // An event tracker that wraps dispatchEvent and chokes on events it did
  // not make.
  var dispatch = EventTarget.prototype.dispatchEvent;
  EventTarget.prototype.dispatchEvent = function (e) {
    if (!e.$tracked) throw new TypeError("Cannot read properties of undefined (reading 'indexOf')");
    return dispatch.call(this, e);
  };
  // A style helper that answers for no element.
  window.getComputedStyle = function () { return { getPropertyValue: function () { return ''; } }; };
  // Map and Set from a polyfill that knows no iteration.
  window.Map = function () { this.$items = {}; };
  window.Map.prototype.set = function (k, v) { this.$items[k] = v; return this; };
  window.Map.prototype.get = function (k) { return this.$items[k]; };
})();
