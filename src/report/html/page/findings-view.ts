import type { ConfigChange, MachineConfigDiff } from '../../../machineconfig/index.js';
import type { ReportData, ReportEvidence, ReportFinding } from '../report-data-types.js';
import { el, plural } from './dom.js';
import { clock, dateTime } from './time-format.js';

export interface FindingActions {
  /** The finding was clicked: select it, or clear the selection when it was already selected. */
  readonly toggle: (index: number) => void;
  readonly showMoment: (index: number, at: number) => void;
  readonly showRow: (row: number) => void;
}

/** The findings section: each finding's verdict, the moments it marks, its cause chain and config diff. */
export function findingsSection(
  data: ReportData,
  actions: FindingActions,
): { element: HTMLElement; markSelected: (i: number | null) => void } {
  const cards = data.findings.map((f, i) => findingCard(f, i, actions));
  const list = el('div', { class: 'findings' }, ...cards);
  const element = el(
    'section',
    { class: 'findings-section' },
    el('h2', null, `Findings (${data.findings.length})`),
    data.findings.length > 0
      ? el(
          'p',
          { class: 'hint' },
          'Click a finding to mark its moments on the timeline below and pin its rows at the top of it.',
        )
      : el('p', { class: 'empty' }, 'No rule found anything wrong in these inputs.'),
    list,
  );
  const markSelected = (selected: number | null): void => {
    cards.forEach((card, i) => {
      card.classList.toggle('selected', i === selected);
      card.querySelector('.finding-head')?.setAttribute('aria-pressed', String(i === selected));
    });
  };
  return { element, markSelected };
}

function findingCard(f: ReportFinding, index: number, actions: FindingActions): HTMLElement {
  const head = el(
    'button',
    {
      class: 'finding-head',
      type: 'button',
      title: 'Show this finding on the timeline',
      onClick: () => actions.toggle(index),
    },
    el('span', { class: `sev ${f.severity}` }, f.severity),
    el('span', { class: 'summary' }, f.summary),
    el('span', { class: 'rule' }, f.rule),
  );
  head.setAttribute('aria-pressed', 'false');
  const body = el('div', { class: 'finding-body' });
  const about = [
    f.ruleStatement ? `Rule: ${f.ruleStatement}` : '',
    f.at !== undefined ? `At ${dateTime(f.at)}.` : '',
  ]
    .filter(Boolean)
    .join(' ');
  if (about) body.appendChild(el('p', { class: 'hint' }, about));
  if (f.moments.length > 0) {
    body.appendChild(
      el(
        'ul',
        { class: 'moments' },
        ...f.moments.map((m) =>
          el(
            'li',
            null,
            el(
              'button',
              {
                class: 'moment',
                type: 'button',
                title: `${dateTime(m.at)} · ${m.objects.join(', ')}`,
                onClick: () => actions.showMoment(index, m.at),
              },
              el('span', { class: 't' }, clock(m.at)),
              m.label,
            ),
          ),
        ),
      ),
    );
  }
  if (f.steps.length > 0) {
    body.appendChild(
      el(
        'details',
        { open: true },
        el('summary', null, `Cause chain (${plural(f.steps.length, 'step')})`),
        el(
          'ol',
          { class: 'steps' },
          ...f.steps.map((s) =>
            el(
              'li',
              null,
              el('div', null, s.at !== undefined ? `${clock(s.at)} · ` : '', s.title),
              evidenceList(s.evidence, actions),
            ),
          ),
        ),
      ),
    );
  }
  if (f.evidence.length > 0) {
    body.appendChild(
      el(
        'details',
        { open: f.steps.length === 0 },
        el('summary', null, `Evidence (${f.evidence.length})`),
        evidenceList(f.evidence, actions),
      ),
    );
  }
  if (f.configDiff && !f.configDiff.identical) body.appendChild(configDiffView(f.configDiff));
  if (f.signature) {
    body.appendChild(
      el(
        'div',
        { class: 'signature' },
        el('strong', null, `Known signature ${f.signature.id}: ${f.signature.title}`),
        el('p', null, f.signature.detail),
        f.signature.references.length > 0
          ? el('ul', null, ...f.signature.references.map((r) => el('li', null, referenceNode(r))))
          : null,
      ),
    );
  }
  return el('article', { class: `finding ${f.severity}` }, head, body);
}

function evidenceList(items: readonly ReportEvidence[], actions: FindingActions): HTMLElement {
  return el(
    'ul',
    { class: 'evidence' },
    ...items.map((e) => {
      const meta: HTMLElement[] = [];
      if (e.at !== undefined) meta.push(el('span', { class: 'mono', title: dateTime(e.at) }, clock(e.at)));
      if (e.object !== undefined) {
        const row = e.row;
        meta.push(
          row !== undefined
            ? el(
                'span',
                {
                  class: 'ev-obj',
                  title: 'Show this row on the timeline',
                  onClick: () => actions.showRow(row),
                },
                e.object,
              )
            : el('span', null, e.object),
        );
      }
      if (e.field !== undefined) meta.push(el('span', { class: 'mono' }, e.field));
      if (e.value !== undefined) meta.push(el('span', { class: 'mono' }, `= ${e.value}`));
      if (e.ref !== undefined) meta.push(el('span', { class: 'mono' }, e.ref));
      return el(
        'li',
        null,
        el('div', null, e.statement),
        meta.length > 0 ? el('div', { class: 'ev-meta' }, ...meta) : null,
      );
    }),
  );
}

/** The rendered-config diff of a finding: each changed part, with its text diff coloured by line. */
function configDiffView(diff: MachineConfigDiff): HTMLElement {
  return el(
    'details',
    { open: true },
    el(
      'summary',
      null,
      `Machine-config diff ${diff.from} → ${diff.to} (${plural(diff.changes.length, 'change')})`,
    ),
    ...diff.changes.map(changeView),
  );
}

function changeView(c: ConfigChange): HTMLElement {
  const rows: HTMLElement[] = [];
  if (c.before !== undefined)
    rows.push(
      el('div', { class: 'diff-kv' }, el('span', { class: 'rule' }, 'before '), el('code', null, c.before)),
    );
  if (c.after !== undefined)
    rows.push(
      el('div', { class: 'diff-kv' }, el('span', { class: 'rule' }, 'after '), el('code', null, c.after)),
    );
  for (const a of c.attributes ?? []) rows.push(el('div', { class: 'diff-kv' }, a));
  for (const img of c.images ?? []) {
    const who = img.component
      ? `release component "${img.component}": `
      : img.replaced
        ? `image no release read names (it replaced "${img.replaced}"): `
        : 'image: ';
    rows.push(
      el(
        'div',
        { class: 'diff-kv' },
        who,
        el('code', null, `${img.before ?? '(none)'} → ${img.after ?? '(none)'}`),
      ),
    );
  }
  if (c.textDiff) rows.push(textDiffView(c.textDiff));
  return el(
    'div',
    { class: 'diff-change' },
    el('div', { class: 'diff-title' }, `${c.change} ${c.part}: `, el('code', null, c.name)),
    ...rows,
  );
}

function textDiffView(text: string): HTMLElement {
  const pre = el('pre', { class: 'diff' });
  for (const line of text.split('\n')) {
    const cls =
      line.startsWith('+++') || line.startsWith('---')
        ? ''
        : line.startsWith('+')
          ? 'add'
          : line.startsWith('-')
            ? 'del'
            : line.startsWith('@@')
              ? 'hunk'
              : '';
    pre.appendChild(cls ? el('span', { class: cls }, line) : document.createTextNode(`${line}\n`));
  }
  return pre;
}

/** A reference is a link only when it is an https URL; anything else stays text. */
function referenceNode(ref: string): Node {
  if (!/^https:\/\/[^\s]+$/.test(ref)) return document.createTextNode(ref);
  const a = el('a', null, ref);
  a.href = ref;
  a.rel = 'noreferrer noopener';
  a.target = '_blank';
  return a;
}
