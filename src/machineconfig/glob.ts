/**
 * Shell-style globs for `--path`: `*` and `?` stay within one path segment, `**` crosses segments,
 * `[abc]`/`[!abc]` are classes and `{a,b}` alternatives. Matches the whole name.
 */
export function globToRegExp(glob: string): RegExp {
  let re = '';
  let depth = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*') {
      if (glob[i + 1] === '*') {
        // `**/` also matches no folder at all.
        if (glob[i + 2] === '/') {
          re += '(?:.*/)?';
          i += 2;
        } else {
          re += '.*';
          i += 1;
        }
      } else re += '[^/]*';
    } else if (c === '?') re += '[^/]';
    else if (c === '[') {
      const end = glob.indexOf(']', i + 2);
      if (end === -1) re += '\\[';
      else {
        let body = glob.slice(i + 1, end);
        const negate = body.startsWith('!') || body.startsWith('^');
        if (negate) body = body.slice(1);
        re += `[${negate ? '^' : ''}${body.replace(/[\\\]]/g, '\\$&')}]`;
        i = end;
      }
    } else if (c === '{') {
      depth += 1;
      re += '(?:';
    } else if (c === '}' && depth > 0) {
      depth -= 1;
      re += ')';
    } else if (c === ',' && depth > 0) re += '|';
    else if (c === '\\' && i + 1 < glob.length) {
      i += 1;
      re += glob[i]!.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    } else re += c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }
  while (depth-- > 0) re += ')';
  return new RegExp(`^${re}$`);
}
