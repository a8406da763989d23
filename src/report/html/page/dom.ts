/**
 * The only way the page makes elements: every string becomes a text node (textContent), never markup,
 * so nothing from the report's input can turn into HTML.
 */
type Child = Node | string | number | null | undefined | false;

export interface Props {
  readonly class?: string;
  readonly title?: string;
  readonly type?: string;
  readonly open?: boolean;
  readonly onClick?: (ev: MouseEvent) => void;
}

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Props | null,
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (props?.class) node.className = props.class;
  if (props?.title !== undefined) node.title = props.title;
  if (props?.type !== undefined) node.setAttribute('type', props.type);
  if (props?.open && node instanceof HTMLDetailsElement) node.open = true;
  const onClick = props?.onClick;
  if (onClick) node.addEventListener('click', (ev) => onClick(ev as MouseEvent));
  append(node, children);
  return node;
}

export function append(parent: Node, children: readonly Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    parent.appendChild(
      typeof c === 'string' || typeof c === 'number' ? document.createTextNode(String(c)) : c,
    );
  }
}

/**
 * `1 step`, `2 steps`: model/words.ts's plural, repeated here because the page script is bundled into
 * every report and must not import model/ (and with it zod).
 */
export function plural(n: number, word: string, many = `${word}s`): string {
  return `${n} ${n === 1 ? word : many}`;
}
