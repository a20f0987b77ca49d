const data = JSON.parse(document.getElementById('items').textContent);
const byId = new Map(data.map(d => [d.id, d]));
const search = document.getElementById('search');
const component = document.getElementById('component');
const field = document.getElementById('field');
const value = document.getElementById('value');
const shown = document.getElementById('shown');
function matches(d) {
  if (component.value && d.component !== component.value) return false;
  if (field.value && value.value && !String(d.fields[field.value] ?? '').toLowerCase().includes(value.value.toLowerCase())) return false;
  const q = search.value.trim().toLowerCase();
  return !q || d.search.includes(q);
}
function update() {
  let n = 0;
  for (const figure of document.querySelectorAll('figure[data-id]')) {
    const ok = matches(byId.get(figure.dataset.id));
    figure.hidden = !ok;
    if (ok) n++;
  }
  shown.textContent = n + ' of ' + data.length + ' shown';
}
for (const control of [search, component, field, value]) {
  control.addEventListener('input', update);
  control.addEventListener('change', update);
}
document.getElementById('filters').addEventListener('submit', e => e.preventDefault());
if (location.hash) { const target = document.getElementById(location.hash.slice(1)); if (target) target.focus(); }
update();
