/* The HTML report's 3D replay: plays a test's <test>.replay.glb (recording/replay_glb.py) with three.js.

   Nothing is fetched from the network: three.js, its glTF loader and orbit controls are bundled beside this file
   (three-replay.min.js, tools/build_replay_viewer.sh), and a page opened from disk may load scripts but not fetch
   files, so each replay's bytes come from its base64 twin <test>.replay.glb.js. A replay starts when its section is
   open and on screen; at most MAX_LIVE hold a WebGL context at once (browsers allow about sixteen).

   Each <div class="replay3d" data-replay-src="...glb.js" data-replay-glb="...glb"> becomes: the asset in 3D (drag to
   orbit, wheel to zoom), a play button, the speed (real time or slowed), a scrubber on the simulated time with the
   chapters and the verdict's moment marked, the joint under test tinted with its marker shown, the forces as arrows
   and their load in newtons, the joint's own verdict during its chapters and the verdict card from its moment on.
   Scripts and tests reach each viewer as SimreadyReplay.viewers[id] (seek, play, pause, bodies, info). */
(function () {
  "use strict";
  var here = document.currentScript;
  var BUNDLE = here && here.dataset.three ? here.dataset.three : "viewer/three-replay.min.js";
  var MAX_LIVE = 4;
  var SPEEDS = [[1, "real time"], [0.5, "0.5x"], [0.25, "0.25x"], [0.1, "0.1x"]];
  var HIGHLIGHT = 0xb8ff00;  // chartreuse: the body the joint under test moves (as the video tints it)
  var CAMERA_DIRECTION = [1, -1.35, 0.55];  // Z-up, from the asset towards the camera (as the video)
  var STATUS_COLORS = {PASS: "#1a7f37", FAIL: "#cf222e", WARN: "#bf8700", ERROR: "#8250df", SKIP: "#57606a",
                       PRECHECK_FAILURE: "#6639ba", NOT_APPLICABLE: "#afb8c1"};
  var viewers = {};
  var live = [];
  var scripts = {};

  function loadScript(src, replayKey, done, fail) {
    if (scripts[src] === "loaded") { done(); return; }
    if (scripts[src]) { scripts[src].push([done, fail]); return; }
    scripts[src] = [[done, fail]];
    var tag = document.createElement("script");
    if (replayKey) tag.dataset.replay = replayKey;
    tag.src = src;
    tag.onload = function () { var waiting = scripts[src]; scripts[src] = "loaded"; waiting.forEach(function (w) { w[0](); }); };
    tag.onerror = function () { var waiting = scripts[src]; delete scripts[src]; waiting.forEach(function (w) { w[1]("cannot load " + src); }); };
    document.head.appendChild(tag);
  }

  /* The GLB's bytes from its script twin: base64 of the zlib-compressed file, inflated by the browser. */
  function bytesOf(packed, done, fail) {
    var text = atob(packed.data || packed), raw = new Uint8Array(text.length);
    for (var i = 0; i < text.length; i++) raw[i] = text.charCodeAt(i);
    if (packed.encoding !== "deflate") { done(raw.buffer); return; }
    if (!window.DecompressionStream) { fail("this browser cannot inflate the replay (no DecompressionStream)"); return; }
    new Response(new Blob([raw]).stream().pipeThrough(new DecompressionStream("deflate"))).arrayBuffer().then(done, function (e) {
      fail(String(e && e.message || e));
    });
  }

  function el(tag, className, parent, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    if (parent) parent.appendChild(node);
    return node;
  }

  function Viewer(root) {
    this.root = root;
    this.id = root.id;
    this.state = "idle";
    this.time = 0;
    this.speed = 1;
    this.playing = false;
    this.lastUsed = 0;
  }

  Viewer.prototype.setState = function (state, why) {
    this.state = state;
    this.root.dataset.state = state;
    if (why) { this.root.dataset.error = why; this.message.textContent = why; this.message.hidden = false; }
  };

  Viewer.prototype.build = function () {
    var root = this.root;
    var stage = this.stage = el("div", "r3-stage", null);
    root.insertBefore(stage, root.firstChild);
    this.canvas = el("canvas", "r3-canvas", stage);
    this.hud = el("div", "r3-hud", stage);
    this.jointCard = el("div", "r3-joint", stage);
    this.jointCard.hidden = true;
    this.card = el("div", "r3-card", stage);
    this.card.hidden = true;
    this.message = el("div", "r3-message", stage, "loading the 3D replay…");
    var controls = el("div", "r3-controls", null);
    root.insertBefore(controls, stage.nextSibling);
    this.playButton = el("button", "r3-play", controls, "▶ play");
    this.playButton.type = "button";
    this.speedSelect = el("select", "r3-speed", controls);
    SPEEDS.forEach(function (s) { var o = el("option", null, this.speedSelect, s[1]); o.value = String(s[0]); }, this);
    var track = el("div", "r3-track", controls);
    this.scrub = el("input", "r3-scrub", track);
    this.scrub.type = "range";
    this.scrub.step = "any";
    this.ticks = el("div", "r3-ticks", track);
    this.clock = el("span", "r3-time", controls);
    var self = this;
    this.playButton.addEventListener("click", function () { if (self.playing) self.pause(); else self.play(); });
    this.speedSelect.addEventListener("change", function () { self.speed = parseFloat(self.speedSelect.value); });
    this.scrub.addEventListener("input", function () { self.pause(); self.seek(parseFloat(self.scrub.value)); });
  };

  Viewer.prototype.start = function () {
    if (this.state !== "idle") return;
    if (!this.stage) this.build();
    this.startedAt = performance.now();
    this.setState("loading");
    this.message.hidden = false;
    var self = this, src = this.root.dataset.replaySrc;
    function fail(why) { self.setState("error", "3D replay not shown: " + why); }
    loadScript(BUNDLE, null, function () {
      if (!window.SimreadyThree) { fail("the viewer bundle did not load"); return; }
      loadScript(src, self.id, function () {
        var packed = (window.SIMREADY_REPLAYS || {})[self.id];
        if (!packed) { fail("no replay data in " + src); return; }
        var T = window.SimreadyThree;
        bytesOf(packed, function (buffer) {
          try {
            new T.GLTFLoader().parse(buffer, "", function (gltf) {
              try { self.show(T, gltf); } catch (e) { fail(String(e && e.message || e)); }
            }, function (e) { fail(String(e && e.message || e)); });
          } catch (e) { fail(String(e && e.message || e)); }
        }, fail);
      }, fail);
    }, fail);
  };

  Viewer.prototype.show = function (T, gltf) {
    var info = this.info = gltf.scene.userData.simready_replay || {};
    info.chapters = info.chapters || [];
    info.loads = info.loads || [];
    var times = info.time || {start: 0, end: 0};
    this.start_ = times.start || 0;
    this.end = times.end || 0;
    this.verdictTime = times.verdict === undefined ? this.end : times.verdict;
    try {
      this.renderer = new T.WebGLRenderer({canvas: this.canvas, antialias: true, preserveDrawingBuffer: true});
    } catch (e) {
      this.setState("error", "3D replay not shown: this browser has no WebGL; open the .glb in any glTF viewer");
      return;
    }
    this.T = T;
    var width = this.stage.clientWidth || 560, height = Math.round(width * 9 / 16);
    this.renderer.setPixelRatio(Math.min(window.devicePixelRatio || 1, 2));
    this.renderer.setSize(width, height, false);
    var scene = this.scene = new T.Scene();
    scene.background = new T.Color(0x2f4f86);
    scene.add(new T.HemisphereLight(0xffffff, 0x404858, 2.2));
    var sun = new T.DirectionalLight(0xffffff, 1.6);
    sun.position.set(2, 4, 3);
    scene.add(sun);
    scene.add(gltf.scene);
    this.model = gltf.scene.children[0] || gltf.scene;  // the Z-up -> Y-up root: poses are in its frame
    this.bodies_ = {};
    var bodies = this.bodies_;
    gltf.scene.traverse(function (node) { if (node.userData && node.userData.path) bodies[node.userData.path] = node; });
    this.mixer = new T.AnimationMixer(gltf.scene);
    if (gltf.animations.length) {
      var action = this.mixer.clipAction(gltf.animations[0]);
      action.setLoop(T.LoopOnce, 1);
      action.clampWhenFinished = true;
      action.play();
    }
    var size = info.size_m || 1;
    var box = info.bounds_m || [[-size / 2, -size / 2, 0], [size / 2, size / 2, size]];
    var lo = box[0], hi = box[1];
    var center = new T.Vector3((lo[0] + hi[0]) / 2, (lo[2] + hi[2]) / 2, -(lo[1] + hi[1]) / 2);
    var radius = Math.max(0.03, 0.5 * Math.hypot(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]));
    var camera = this.camera = new T.PerspectiveCamera(30, width / height, radius / 200, radius * 200);
    var d = new T.Vector3(CAMERA_DIRECTION[0], CAMERA_DIRECTION[2], -CAMERA_DIRECTION[1]).normalize();
    camera.position.copy(center).addScaledVector(d, radius / Math.sin(Math.PI * 15 / 180) * 0.85);
    camera.lookAt(center);
    if (info.floor && info.floor.shown) {
      var grid = new T.GridHelper(Math.max(8 * radius, 1), 16, 0x9fb4d8, 0x6f86b0);
      grid.position.set(center.x, info.floor.height_m || 0, center.z);
      scene.add(grid);
    }
    var self = this;
    this.controls = new T.OrbitControls(camera, this.canvas);
    this.controls.target.copy(center);
    this.controls.update();
    this.controls.addEventListener("change", function () { self.draw(); });
    this.tinted = null;
    this.scrub.min = String(this.start_);
    this.scrub.max = String(this.end);
    this.marks();
    this.message.hidden = true;
    this.seek(this.pending === undefined ? this.start_ : this.pending);  // a chapter asked for while it loaded
    delete this.pending;
    this.root.dataset.loadMs = String(Math.round(performance.now() - this.startedAt));  // to the first frame drawn
    this.setState("ready");
  };

  Viewer.prototype.marks = function () {
    var span = Math.max(this.end - this.start_, 1e-9), ticks = this.ticks, self = this;
    function mark(time, className, color, title) {
      var tick = el("span", className, ticks);
      tick.style.left = (100 * (time - self.start_) / span) + "%";
      if (color) tick.style.background = color;
      tick.title = title;
      tick.addEventListener("click", function () { self.pause(); self.seek(time); });
    }
    this.info.chapters.forEach(function (c) {
      mark(c.time, "r3-tick", c.status ? STATUS_COLORS[c.status] : null, c.label + (c.status ? " (" + c.status + ")" : ""));
    });
    mark(this.verdictTime, "r3-tick r3-verdict", STATUS_COLORS[this.info.verdict], "verdict: " + (this.info.label || this.info.verdict));
  };

  Viewer.prototype.chapterAt = function (time) {
    var found = null;
    this.info.chapters.forEach(function (c) { if (c.time <= time + 1e-9) found = c; });
    return found;
  };

  Viewer.prototype.loadAt = function (time) {
    var loads = this.info.loads, found = null;
    for (var i = 0; i < loads.length && loads[i][0] <= time + 1e-9; i++) found = loads[i];
    if (!found) return null;
    var chapter = this.chapterAt(time);  // a load holds within its chapter only
    return chapter && found[0] + 1e-9 < chapter.time ? null : found[1];
  };

  Viewer.prototype.seek = function (time) {
    if (!this.mixer) return;
    time = Math.min(Math.max(time, this.start_), this.end);
    this.time = time;
    this.mixer.setTime(time);
    this.scrub.value = String(time);
    var chapter = this.chapterAt(time);
    this.tint(chapter && chapter.body ? this.bodies_[chapter.body] : null);
    var load = this.loadAt(time);
    this.hud.textContent = (this.info.title || this.info.test || "") + "\n" + "t = " + time.toFixed(3) + " s of " +
      this.end.toFixed(3) + " s simulated" + (chapter ? " · " + chapter.label : "") +
      (load !== null ? " · load " + Number(load.toPrecision(3)) + " N (arrow)" : "");
    if (chapter && chapter.joint && chapter.status) {
      this.jointCard.hidden = false;
      this.jointCard.innerHTML = "";
      var badge = el("span", "r3-badge", this.jointCard, chapter.status);
      badge.style.background = STATUS_COLORS[chapter.status] || "#57606a";
      el("span", null, this.jointCard, " joint " + chapter.joint + (chapter.reason ? ": " + chapter.reason : ""));
    } else {
      this.jointCard.hidden = true;
    }
    var decided = time >= this.verdictTime - 1e-6;
    if (decided && this.card.hidden) {
      this.card.innerHTML = "";
      var verdict = el("span", "r3-badge", this.card, this.info.label || this.info.verdict || "");
      verdict.style.background = STATUS_COLORS[this.info.verdict] || "#57606a";
      el("b", null, this.card, " " + (this.info.test || ""));
      el("span", null, this.card, " at t = " + this.verdictTime.toFixed(3) + " s: " + (this.info.reason || ""));
    }
    this.card.hidden = !decided;
    this.root.dataset.time = String(time);
    this.clock.textContent = time.toFixed(2) + " / " + this.end.toFixed(2) + " s";
    this.draw();
  };

  Viewer.prototype.tint = function (node) {
    if (node === this.tinted) return;
    var T = this.T;
    function paint(target, on) {
      if (!target) return;
      target.traverse(function (o) {
        if (!o.isMesh || (o.parent && o.parent.userData && o.parent.userData.joint) || (o.userData && o.userData.joint)) return;
        if (!o.userData.ownMaterial) { o.material = o.material.clone(); o.userData.ownMaterial = true; }
        o.material.emissive = new T.Color(on ? HIGHLIGHT : 0x000000);
        o.material.emissiveIntensity = on ? 0.55 : 1;
      });
    }
    paint(this.tinted, false);
    paint(node, true);
    this.tinted = node;
  };

  Viewer.prototype.draw = function () {
    if (this.renderer) { this.lastUsed = Date.now(); this.renderer.render(this.scene, this.camera); }
  };

  Viewer.prototype.play = function () {
    if (this.state !== "ready") return;
    if (this.time >= this.end - 1e-9) this.seek(this.start_);
    this.playing = true;
    this.playButton.textContent = "❚❚ pause";
    var self = this, last = performance.now();
    function frame(now) {
      if (!self.playing) return;
      self.seek(self.time + (now - last) / 1000 * self.speed);
      last = now;
      if (self.time >= self.end - 1e-9) { self.pause(); return; }
      requestAnimationFrame(frame);
    }
    requestAnimationFrame(frame);
  };

  Viewer.prototype.pause = function () {
    this.playing = false;
    if (this.playButton) this.playButton.textContent = "▶ play";
  };

  /* Each body's position in the replay's own frame (SI, Z-up, metres) at the shown time: what tests compare with
     the recorded poses. */
  Viewer.prototype.bodies = function () {
    var out = {}, T = this.T, model = this.model;
    if (!T) return out;
    this.scene.updateMatrixWorld(true);
    var inverse = new T.Matrix4().copy(model.matrixWorld).invert();
    Object.keys(this.bodies_).forEach(function (path) {
      var p = new T.Vector3().setFromMatrixPosition(this.bodies_[path].matrixWorld).applyMatrix4(inverse);
      out[path] = [p.x, p.y, p.z];
    }, this);
    return out;
  };

  Viewer.prototype.stop = function () {
    this.pause();
    if (this.controls) this.controls.dispose();
    if (this.renderer) { this.renderer.dispose(); this.renderer.forceContextLoss(); }
    this.renderer = this.controls = this.scene = this.mixer = this.T = null;
    if (this.stage) { this.stage.parentNode.removeChild(this.stage); this.stage = null; }
    var controls = this.root.querySelector(".r3-controls");
    if (controls) controls.parentNode.removeChild(controls);
    this.setState("idle");
  };

  function use(viewer) {
    live = live.filter(function (v) { return v !== viewer; });
    live.push(viewer);
    viewer.start();
    while (live.length > MAX_LIVE) live.shift().stop();
  }

  function setUp() {
    var watcher = "IntersectionObserver" in window ? new IntersectionObserver(function (entries) {
      entries.forEach(function (entry) { if (entry.isIntersecting) use(viewers[entry.target.id]); });
    }) : null;
    document.querySelectorAll(".replay3d[data-replay-src]").forEach(function (root) {
      viewers[root.id] = new Viewer(root);
      if (watcher) watcher.observe(root); else use(viewers[root.id]);
    });
  }

  window.SimreadyReplay = {
    viewers: viewers,
    use: function (id) { use(viewers[id]); return viewers[id]; },
    /* chapter buttons: the replay of their test seeks to the chapter's simulated time */
    seek: function (id, time) {
      var v = viewers[id];
      if (!v) return;
      use(v);
      if (v.state === "ready") { v.pause(); v.seek(time); } else { v.pending = time; }
    }
  };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setUp); else setUp();
})();
