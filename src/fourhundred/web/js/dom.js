// A tiny DOM builder: h("button", {class: "x", onclick: f}, "text", child).
// No virtual DOM: screens rebuild their subtree and `keepFocus` puts the
// keyboard focus back on the element with the same data-key, so a
// re-render never throws a keyboard user out of the page.

const SVG_NS = "http://www.w3.org/2000/svg";

function applyProps(el, props) {
  for (const [key, value] of Object.entries(props || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") {
      el.setAttribute("class", Array.isArray(value) ? value.filter(Boolean).join(" ") : value);
    } else if (key === "style" && typeof value === "object") {
      for (const [prop, v] of Object.entries(value)) el.style.setProperty(prop, String(v));
    } else if (key === "dataset") {
      for (const [k, v] of Object.entries(value)) el.dataset[k] = String(v);
    } else if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), value);
    } else if (key === "html") {
      el.innerHTML = value; // only ever used with SVG built by cards.js
    } else if (value === true) {
      el.setAttribute(key, "");
    } else {
      el.setAttribute(key, String(value));
    }
  }
}

function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else if (child instanceof Node) el.appendChild(child);
    else el.appendChild(document.createTextNode(String(child)));
  }
}

/** An HTML element. */
export function h(tag, props, ...children) {
  const el = document.createElement(tag);
  applyProps(el, props);
  append(el, children);
  return el;
}

/** An SVG element. */
export function s(tag, props, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  applyProps(el, props);
  append(el, children);
  return el;
}

/** A number kept left-to-right inside Arabic text ("-3" stays "-3"). */
export function num(value, cls = null) {
  return h("span", { class: ["num", cls], dir: "ltr" }, String(value));
}

/** Replace the children of `root` with `children`, keeping the focus on
 * the element that has the same data-key as the focused one had. */
export function mount(root, ...children) {
  const active = document.activeElement;
  const key = active instanceof HTMLElement && root.contains(active) ? active.dataset.key : null;
  // Where the caret was in a text field (kept text is typed on in place).
  const caret = active instanceof HTMLInputElement && active.type === "text" ? [active.selectionStart, active.selectionEnd] : null;
  root.replaceChildren();
  append(root, children);
  if (key) {
    const again = root.querySelector(`[data-key="${CSS.escape(key)}"]`);
    if (again && !again.disabled) {
      again.focus({ preventScroll: true });
      if (caret && again instanceof HTMLInputElement && again.type === "text") again.setSelectionRange(caret[0], caret[1]);
    }
  }
}

/** Announce a message to screen readers through the polite live region. */
export function announce(text) {
  const region = document.getElementById("live");
  if (!region) return;
  region.textContent = "";
  // A new text node in a later task is announced even when the text repeats.
  setTimeout(() => {
    region.textContent = text;
  }, 30);
}

/** Empty the live region (leaving a screen: its last news is not the next
 * screen's). */
export function quiet() {
  const region = document.getElementById("live");
  if (region) region.textContent = "";
}

/** Copy text to the clipboard; resolves to true when it worked. */
export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = h("textarea", { "aria-hidden": "true", class: "offscreen" }, text);
    document.body.appendChild(area);
    area.select();
    let ok = false;
    try {
      ok = document.execCommand("copy");
    } catch {
      ok = false;
    }
    area.remove();
    return ok;
  }
}
