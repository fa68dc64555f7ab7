// Runs a released PP-OCR ONNX model with onnxruntime (npm onnxruntime-node) on image crops and writes
// the inputs and outputs as a safetensors file: the parity fixtures of the LibTorch models (for the
// recogniser, each step's 8 most probable classes and their probabilities rather than all 6,625).
// usage: node reference.js ORT_PACKAGE_DIR MODEL.onnx det|rec OUT.safetensors NAME:IMAGE.ppm:X:Y:H:W:STEP ...
// Each input is an H x W crop of a binary PPM (P6, 8-bit) from (X, Y), every STEP-th pixel of the
// image in both directions (a cheap downscale of a large map). The tensor fed is BGR, as
// PaddleOCR reads images with OpenCV: det normalised with ImageNet's mean and std, rec as (x/255-0.5)/0.5.
const fs = require('fs');
const ort = require(process.argv[2]);
const [modelPath, kind, outPath] = process.argv.slice(3, 6);
const specs = process.argv.slice(6).map(s => {
  const [name, file, x, y, h, w, step] = s.split(':');
  return { name, file, x: +x, y: +y, h: +h, w: +w, step: +step };
});

// A P6 PPM's header fields and pixels.
function readPpm(file) {
  const b = fs.readFileSync(file);
  const fields = [];
  let i = 0;
  while (fields.length < 4) {
    while (/\s/.test(String.fromCharCode(b[i]))) ++i;
    if (b[i] === 0x23) { while (b[i] !== 0x0a) ++i; continue; }  // a comment
    let f = '';
    while (!/\s/.test(String.fromCharCode(b[i]))) f += String.fromCharCode(b[i++]);
    fields.push(f);
  }
  if (fields[0] !== 'P6' || fields[3] !== '255') throw new Error(file + ': not an 8-bit P6 PPM');
  return { width: +fields[1], height: +fields[2], pixels: b.subarray(i + 1) };
}

function crop(s) {
  const img = readPpm(s.file);
  const rgb = new Uint8Array(s.h * s.w * 3);
  for (let r = 0; r < s.h; ++r)
    for (let c = 0; c < s.w; ++c) {
      const sy = s.y + r * s.step, sx = s.x + c * s.step;
      if (sy >= img.height || sx >= img.width) throw new Error(s.name + ': crop beyond the image');
      for (let k = 0; k < 3; ++k) rgb[3 * (r * s.w + c) + k] = img.pixels[3 * (sy * img.width + sx) + k];
    }
  return rgb;
}

function normalise(rgb, h, w) {
  const mean = kind === 'det' ? [0.485, 0.456, 0.406] : [0.5, 0.5, 0.5];
  const std = kind === 'det' ? [0.229, 0.224, 0.225] : [0.5, 0.5, 0.5];
  const x = new Float32Array(3 * h * w);
  for (let c = 0; c < 3; ++c)          // BGR planes
    for (let i = 0; i < h * w; ++i) x[c * h * w + i] = (rgb[3 * i + (2 - c)] / 255 - mean[c]) / std[c];
  return x;
}

function writeSafetensors(path, tensors) {
  const header = {};
  let offset = 0;
  for (const [name, t] of Object.entries(tensors)) {
    const n = t.data.length * 4;
    header[name] = { dtype: 'F32', shape: t.shape, data_offsets: [offset, offset + n] };
    offset += n;
  }
  header.__metadata__ = { source: 'onnxruntime-node ' + ort.env.versions.common + ', ' + modelPath.split('/').pop() };
  let json = JSON.stringify(header);
  while ((json.length + 8) % 8) json += ' ';
  const buf = Buffer.alloc(8 + json.length + offset);
  buf.writeBigUInt64LE(BigInt(json.length), 0);
  buf.write(json, 8, 'latin1');
  let at = 8 + json.length;
  for (const t of Object.values(tensors)) { Buffer.from(t.data.buffer, t.data.byteOffset, t.data.length * 4).copy(buf, at); at += t.data.length * 4; }
  fs.writeFileSync(path, buf);
}

(async () => {
  const session = await ort.InferenceSession.create(modelPath, { graphOptimizationLevel: 'disabled' });
  const out = {};
  for (const s of specs) {
    const x = normalise(crop(s), s.h, s.w);
    const feeds = { [session.inputNames[0]]: new ort.Tensor('float32', x, [1, 3, s.h, s.w]) };
    const y = (await session.run(feeds))[session.outputNames[0]];
    out[s.name + '.input'] = { data: x, shape: [1, 3, s.h, s.w] };
    const dims = y.dims.map(Number);
    if (kind === 'det') { out[s.name + '.output'] = { data: y.data, shape: dims }; continue; }
    // rec: [1, T, C] probabilities; kept small: each step's 8 most probable classes and their probabilities.
    const [T, C, K] = [dims[1], dims[2], 8];
    const ids = new Float32Array(T * K), probs = new Float32Array(T * K);
    for (let t = 0; t < T; ++t) {
      const row = Array.from(y.data.subarray(t * C, (t + 1) * C).entries()).sort((a, b) => b[1] - a[1]).slice(0, K);
      row.forEach(([id, p], k) => { ids[t * K + k] = id; probs[t * K + k] = p; });
    }
    out[s.name + '.top_ids'] = { data: ids, shape: [T, K] };
    out[s.name + '.top_probs'] = { data: probs, shape: [T, K] };
  }
  writeSafetensors(outPath, out);
})().catch(e => { console.error(e); process.exit(1); });
