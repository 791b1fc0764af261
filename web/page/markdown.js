// The little Markdown that ppn-ls's hovers use (paragraphs, **bold**, `code`, lists and
// fenced blocks), as HTML. Everything is escaped first: the text is never markup.
function escape(text) {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function inline(text) {
  return escape(text)
    .replace(/`([^`]+)`/g, '<code>$1</code>')
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>');
}

export function markdownToHtml(markdown) {
  const out = [];
  const lines = markdown.split('\n');
  let paragraph = [];
  let list = [];
  const flush = () => {
    if (paragraph.length) out.push('<p>' + paragraph.map(inline).join('<br>') + '</p>');
    if (list.length) out.push('<ul>' + list.map((item) => '<li>' + inline(item) + '</li>').join('') + '</ul>');
    paragraph = [];
    list = [];
  };
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i];
    if (line.startsWith('```')) {
      flush();
      const block = [];
      for (i += 1; i < lines.length && !lines[i].startsWith('```'); i += 1) block.push(lines[i]);
      out.push('<pre>' + escape(block.join('\n')) + '</pre>');
    } else if (/^\s*[-*] /.test(line)) {
      if (paragraph.length) flush();
      list.push(line.replace(/^\s*[-*] /, ''));
    } else if (line.trim() === '') {
      flush();
    } else {
      if (list.length) flush();
      paragraph.push(line);
    }
  }
  flush();
  return out.join('');
}
