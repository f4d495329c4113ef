// The one DOM helper the page needs: elements built from a tag, attributes and children.

// el("td", {class: "games"}, "405").
export function el(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  element.append(...children);
  return element;
}
