// The parts of three.js the report's 3D replay viewer uses (reports/viewer/replay-viewer.js), bundled by
// tools/build_replay_viewer.sh into one classic script (a page opened from disk cannot load ES modules) that
// defines window.SimreadyThree.
export {
  AnimationMixer, Color, DirectionalLight, GridHelper, HemisphereLight, LoopOnce, Matrix4, PerspectiveCamera, Scene,
  Vector3, WebGLRenderer,
} from "three";
export { GLTFLoader } from "three/examples/jsm/loaders/GLTFLoader.js";
export { OrbitControls } from "three/examples/jsm/controls/OrbitControls.js";
