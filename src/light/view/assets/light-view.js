// light view: linked map text over a deep-zoom map (written by `light view`; data in data.js).
// Search uses `light search`'s normalisation (src/light/search/normalize.cpp; the abbreviations come
// from the binary, in data.js) and its edit distance, so the page and the command agree.
(function () {
  'use strict';
  const D = window.LIGHT_VIEW_DATA;
  const SVG = 'http://www.w3.org/2000/svg';
  const $ = (id) => document.getElementById(id);
  const ABBR = new Map(D.abbreviations);
  const VERDICT = { c: 'correct', w: 'wrong' };

  // ---- search ----------------------------------------------------------------------------------
  const LETTER_OR_DIGIT = /^[\p{L}\p{N}]$/u;
  const APOSTROPHES = new Set(["'", '\u2019', '\u2018', '\u02BC']);
  function pushWord(out, w) {
    if (w) out.push(ABBR.get(w) || w);
  }
  function pushChunk(out, chunk) {
    if (!chunk.includes('.')) return pushWord(out, chunk);
    const letters = chunk.replace(/\./g, '');
    if (ABBR.has(letters)) return void out.push(ABBR.get(letters));
    for (const part of chunk.split('.')) pushWord(out, part);
  }
  function normalizedWords(s) {
    const t = s.normalize('NFKD').toLowerCase().normalize('NFKD').replace(/\p{M}/gu, '')
      .replace(/\p{Default_Ignorable_Code_Point}/gu, '').replace(/\u00df/g, 'ss');
    const out = [];
    let chunk = '';
    for (const c of t) {
      if (LETTER_OR_DIGIT.test(c)) chunk += c;
      else if (c === '.') chunk += '.';
      else if (APOSTROPHES.has(c)) continue;
      else {
        pushChunk(out, chunk);
        chunk = '';
        if (c === '&') out.push('and');
      }
    }
    pushChunk(out, chunk);
    return out;
  }
  function normalize(s) { return normalizedWords(s).join(' '); }

  // Levenshtein distance of code-point arrays, or bound + 1 once it must exceed bound.
  function distance(a, b, bound) {
    if (Math.abs(a.length - b.length) > bound) return bound + 1;
    let row = Array.from({ length: b.length + 1 }, (_, j) => j);
    for (let i = 1; i <= a.length; i++) {
      const next = [i];
      let best = i;
      for (let j = 1; j <= b.length; j++) {
        next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
        best = Math.min(best, next[j]);
      }
      if (best > bound) return bound + 1;
      row = next;
    }
    return Math.min(row[b.length], bound + 1);
  }
  function autoMaxEdits(length) { return Math.min(3, Math.floor(length / 4)); }

  // Matches of `query` over every image's phrases, best first: {image, phrase, edits, whole}.
  function find(query, maxEdits) {
    const q = Array.from(normalize(query));
    if (q.length === 0) return [];
    const k = maxEdits === undefined || maxEdits < 0 ? autoMaxEdits(q.length) : maxEdits;
    const out = [];
    D.images.forEach((img, i) => img.phrases.forEach((ph, p) => {
      const t = Array.from(ph.n);
      let best = { image: i, phrase: p, edits: k + 1, whole: true, distance: 1 };
      const whole = distance(q, t, k);
      if (whole <= k) {
        best.edits = whole;
        best.distance = whole / Math.max(q.length, t.length);
      } else if (t.includes(' ')) {
        const starts = [0], ends = [];
        t.forEach((c, x) => { if (c === ' ') { ends.push(x); starts.push(x + 1); } });
        ends.push(t.length);
        for (let a = 0; a < starts.length; a++) {
          for (let b = a; b < ends.length; b++) {
            if (a === 0 && b === ends.length - 1) continue;
            const len = ends[b] - starts[a];
            if (len + k < q.length) continue;
            if (len > q.length + k) break;
            const e = distance(q, t.slice(starts[a], ends[b]), Math.min(k, best.edits));
            const d = e / Math.max(q.length, len);
            if (e <= k && (e < best.edits || (e === best.edits && d < best.distance))) {
              best = { image: i, phrase: p, edits: e, whole: false, distance: d };
            }
          }
        }
      }
      if (best.edits <= k) out.push(best);
    }));
    out.sort((x, y) => x.edits - y.edits || (y.whole - x.whole) || x.distance - y.distance || x.image - y.image || x.phrase - y.phrase);
    return out;
  }

  // ---- drawing ---------------------------------------------------------------------------------
  const colour = (g, l) => `hsl(${(g * 137.508) % 360}, 72%, ${l}%)`;
  function bbox(poly) {
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    for (let k = 0; k + 1 < poly.length; k += 2) {
      x0 = Math.min(x0, poly[k]); x1 = Math.max(x1, poly[k]);
      y0 = Math.min(y0, poly[k + 1]); y1 = Math.max(y1, poly[k + 1]);
    }
    return [x0, y0, x1, y1];
  }
  const centre = (b) => [(b[0] + b[2]) / 2, (b[1] + b[3]) / 2];
  function el(name, attrs) {
    const e = document.createElementNS(SVG, name);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    return e;
  }
  // An arrow from a to b (image pixels): a line and a head `size` long.
  function arrow(a, b, size, cls, stroke) {
    const dx = b[0] - a[0], dy = b[1] - a[1], len = Math.hypot(dx, dy) || 1;
    const ux = dx / len, uy = dy / len;
    const tip = [b[0] - ux * size * 0.3, b[1] - uy * size * 0.3];
    const base = [tip[0] - ux * size, tip[1] - uy * size];
    const g = el('g', { class: 'link' });
    const line = el('path', { class: 'arrow ' + cls, d: `M${a[0]} ${a[1]}L${base[0]} ${base[1]}` });
    if (stroke) line.style.stroke = stroke;
    const head = el('path', {
      class: 'head ' + cls,
      d: `M${tip[0]} ${tip[1]}L${base[0] - uy * size * 0.45} ${base[1] + ux * size * 0.45}L${base[0] + uy * size * 0.45} ${base[1] - ux * size * 0.45}Z`,
    });
    if (stroke) head.style.fill = stroke;
    g.append(line, head);
    return g;
  }

  const state = { image: -1, boxes: [], hit: null };
  const viewer = OpenSeadragon({
    element: $('map'),
    showNavigationControl: false,
    drawer: 'canvas',
    animationTime: 0.7,
    visibilityRatio: 0.2,
    maxZoomPixelRatio: 6,
    crossOriginPolicy: false,
    gestureSettingsMouse: { clickToZoom: false },
  });
  const svg = el('svg', { id: 'overlay' });
  const world = el('g', { id: 'world' });
  svg.appendChild(world);
  viewer.canvas.appendChild(svg);
  const tiles = { loaded: 0, failed: 0 };
  viewer.addHandler('tile-loaded', () => tiles.loaded++);
  viewer.addHandler('tile-load-failed', () => tiles.failed++);

  function place() {
    const item = viewer.world.getItemAt(0);
    if (!item || state.image < 0) return;
    const img = D.images[state.image];
    const p0 = item.imageToViewerElementCoordinates(new OpenSeadragon.Point(0, 0));
    const p1 = item.imageToViewerElementCoordinates(new OpenSeadragon.Point(img.width, 0));
    world.setAttribute('transform', `translate(${p0.x} ${p0.y}) scale(${(p1.x - p0.x) / img.width})`);
  }
  for (const e of ['open', 'animation', 'animation-finish', 'resize', 'update-viewport', 'viewport-change']) viewer.addHandler(e, place);

  function draw(k) {
    const img = D.images[k];
    world.replaceChildren();
    state.boxes = img.words.map(bbox);
    const heights = state.boxes.map((b) => Math.min(b[2] - b[0], b[3] - b[1])).sort((a, b) => a - b);
    const size = Math.max(2, 0.45 * (heights[Math.floor(heights.length / 2)] || 10));
    const words = el('g', { id: 'words' }), links = el('g', { id: 'links' });
    img.words.forEach((poly, i) => {
      const pts = [];
      for (let j = 0; j + 1 < poly.length; j += 2) pts.push(poly[j] + ',' + poly[j + 1]);
      const g = img.phrase[i];
      const p = el('polygon', { class: 'word', points: pts.join(' '), 'data-i': i, 'data-phrase': g });
      p.style.fill = colour(g, 50);
      p.style.stroke = colour(g, 35);
      words.appendChild(p);
    });
    img.next.forEach((j, i) => {
      if (j < 0) return;
      const v = D.scores ? VERDICT[img.verdict[i]] : null;
      links.appendChild(arrow(centre(state.boxes[i]), centre(state.boxes[j]), size, v || 'plain', v ? null : colour(img.phrase[i], 30)));
    });
    for (const m of img.missed) {
      const l = m.line;
      links.appendChild(arrow([l[0], l[1]], [l[2], l[3]], size, 'missed', null));
    }
    world.append(words, links);
    place();
  }

  // Opens image k (if not open) and calls then() once it is drawn.
  function showImage(k, then) {
    if (k === state.image) { if (then) then(); return; }
    state.image = k;
    $('image').value = String(k);
    const img = D.images[k];
    viewer.addOnceHandler('open', () => { draw(k); if (then) then(); });
    viewer.open({
      width: img.width, height: img.height, tileSize: img.tiles.tileSize, tileOverlap: img.tiles.overlap,
      minLevel: 0, maxLevel: img.tiles.maxLevel,
      getTileUrl: (level, x, y) => `${img.tiles.url}${level}/${x}_${y}.jpg`,
    });
  }

  // Flies to phrase p of image k and marks its words.
  function flyTo(k, p, immediately) {
    showImage(k, () => {
      const img = D.images[k];
      const ws = img.phrases[p].words;
      let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
      for (const w of ws) {
        const b = state.boxes[w];
        x0 = Math.min(x0, b[0]); y0 = Math.min(y0, b[1]); x1 = Math.max(x1, b[2]); y1 = Math.max(y1, b[3]);
      }
      const w = Math.max(x1 - x0, 1), h = Math.max(y1 - y0, 1);
      const side = Math.max(w, h) * 2.5 + 40;  // the phrase and some of its surroundings
      const cx = (x0 + x1) / 2, cy = (y0 + y1) / 2;
      const item = viewer.world.getItemAt(0);
      viewer.viewport.fitBounds(item.imageToViewportRectangle(cx - side / 2, cy - side / 2, side, side), !!immediately);
      for (const e of world.querySelectorAll('.word.hit')) e.classList.remove('hit');
      for (const wi of ws) world.querySelector(`.word[data-i="${wi}"]`).classList.add('hit');
      state.hit = { image: k, phrase: p };
      for (const li of $('phrases').querySelectorAll('li.current')) li.classList.remove('current');
      const li = $('phrases').querySelector(`li[data-image="${k}"][data-phrase="${p}"]`);
      if (li) { li.classList.add('current'); li.scrollIntoView({ block: 'nearest' }); }
    });
  }

  // ---- hover -----------------------------------------------------------------------------------
  const tip = $('tip');
  function describe(i) {
    const img = D.images[state.image];
    const ph = img.phrases[img.phrase[i]];
    const esc = (s) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c]));
    let html = `<div class="word">${esc(img.texts[i] || '(no text)')}</div><div>phrase: ${esc(ph.text)}</div>`;
    if (ph.place) html += `<div>place: ${esc(ph.place.name)}${ph.place.accepted ? '' : ' (to check)'}</div>`;
    const next = img.next[i];
    html += next >= 0 ? `<div>next word: ${esc(img.texts[next] || '(no text)')}</div>` : '<div class="muted">ends its phrase</div>';
    // successor_probability: the model's probability of the link given, or of "no successor" at a phrase's end.
    if (img.prob[i] !== null && img.prob[i] !== undefined)
      html += `<div>${next >= 0 ? 'link' : 'end of phrase'} probability: ${img.prob[i].toFixed(2)}</div>`;
    if (D.scores && next >= 0) html += `<div>link: ${VERDICT[img.verdict[i]] || 'not counted'}</div>`;
    return html;
  }
  world.addEventListener('mouseover', (e) => {
    const t = e.target;
    if (!t.classList || !t.classList.contains('word')) return;
    tip.innerHTML = describe(Number(t.dataset.i));
    tip.hidden = false;
    for (const w of world.querySelectorAll(`.word[data-phrase="${t.dataset.phrase}"]`)) w.classList.add('hover');
  });
  world.addEventListener('mousemove', (e) => {
    tip.style.left = Math.min(e.clientX + 14, window.innerWidth - tip.offsetWidth - 4) + 'px';
    tip.style.top = Math.min(e.clientY + 14, window.innerHeight - tip.offsetHeight - 4) + 'px';
  });
  world.addEventListener('mouseout', (e) => {
    if (!e.target.classList || !e.target.classList.contains('word')) return;
    tip.hidden = true;
    for (const w of world.querySelectorAll('.word.hover')) w.classList.remove('hover');
  });

  // ---- the phrase list and the search box ------------------------------------------------------
  const LIST_LIMIT = 1000;
  function list(query) {
    const ol = $('phrases');
    ol.replaceChildren();
    let items;
    if (query.trim()) {
      items = find(query);
    } else {
      items = [];
      D.images.forEach((img, i) => img.phrases.forEach((ph, p) => { if (ph.text) items.push({ image: i, phrase: p }); }));
    }
    const many = D.images.length > 1;
    for (const m of items.slice(0, LIST_LIMIT)) {
      const img = D.images[m.image];
      const li = document.createElement('li');
      li.dataset.image = m.image;
      li.dataset.phrase = m.phrase;
      li.style.borderLeftColor = colour(m.phrase, 50);
      li.textContent = img.phrases[m.phrase].text || '(no text)';
      if (m.edits) li.insertAdjacentHTML('beforeend', `<span class="edits">${m.edits} edit${m.edits > 1 ? 's' : ''}${m.whole ? '' : ', part'}</span>`);
      else if (m.whole === false) li.insertAdjacentHTML('beforeend', '<span class="edits">part</span>');
      if (many) {
        const where = document.createElement('span');
        where.className = 'where';
        where.textContent = img.key;
        li.appendChild(where);
      }
      const place = img.phrases[m.phrase].place;
      if (place && /^https?:/.test(place.uri)) {  // the gazetteer's page of the place, beside the phrase
        const a = document.createElement('a');
        a.className = 'place' + (place.accepted ? '' : ' unsure');
        a.href = place.uri;
        a.target = '_blank';
        a.rel = 'noopener';
        a.textContent = place.name;
        a.title = place.accepted ? 'the place this phrase names' : 'a candidate place, to check';
        a.addEventListener('click', (e) => e.stopPropagation());
        li.appendChild(a);
      } else if (place) {
        const span = document.createElement('span');
        span.className = 'place' + (place.accepted ? '' : ' unsure');
        span.textContent = place.name;
        li.appendChild(span);
      }
      li.addEventListener('click', () => flyTo(m.image, m.phrase));
      ol.appendChild(li);
    }
    if (items.length > LIST_LIMIT) {
      const li = document.createElement('li');
      li.className = 'more';
      li.textContent = `${items.length - LIST_LIMIT} more: narrow the search`;
      ol.appendChild(li);
    }
    const total = D.images.reduce((n, img) => n + img.phrases.length, 0);
    $('summary').textContent = query.trim() ? `${items.length} of ${total} phrases match` : `${total} phrases, ${D.images.reduce((n, img) => n + img.words.length, 0)} words`;
    return items;
  }
  let results = [];
  $('search').addEventListener('input', (e) => { results = list(e.target.value); });
  $('search').addEventListener('keydown', (e) => {
    if (e.key !== 'Enter') return;
    results = list(e.target.value);
    if (results.length) flyTo(results[0].image, results[0].phrase);
  });

  // ---- start -----------------------------------------------------------------------------------
  document.title = D.title;
  $('title').textContent = D.title;
  if (D.images.length > 1) {
    const sel = $('image');
    D.images.forEach((img, i) => sel.appendChild(new Option(img.key, String(i))));
    sel.hidden = false;
    sel.addEventListener('change', () => showImage(Number(sel.value)));
  }
  if (D.scores) {
    $('scores').hidden = false;
    for (const k of ['correct', 'wrong', 'missed']) $('n-' + k).textContent = D.scores[k];
    $('task').textContent = D.scores.task;
    $('s-recall').textContent = D.scores.edges_recall;
    $('s-precision').textContent = D.scores.edges_precision;
    $('s-fscore').textContent = D.scores.edges_fscore;
  }
  list('');
  const api = { ready: false, viewer, data: D, tiles, normalize, find, showImage, flyTo, state };
  window.lightView = api;
  showImage(0, () => { api.ready = true; });
})();
