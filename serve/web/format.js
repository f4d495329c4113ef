// How numbers and lines of moves are written on the page.

const numbers = new Intl.NumberFormat("en-US");

export const count = (n) => numbers.format(n);

// A percentage with one decimal, "0.0%" when there is nothing to divide.
export const percent = (part, whole) => `${(whole ? (100 * part) / whole : 0).toFixed(1)}%`;

export const orDash = (value) => (value === null || value === undefined ? "–" : String(value));

// The side to move and the full-move number of a FEN, which number a line of SAN moves.
export function moveNumbering(fen) {
  const [, turn = "w", , , , fullmove = "1"] = (fen || "").split(" ");
  return { whiteToMove: turn !== "b", fullmove: Number(fullmove) || 1 };
}

// "1. e4 c5 2. Nf3", or "3... Nf6 4. O-O" when black moves first.
export function numberedLine(sans, fen) {
  let { whiteToMove, fullmove } = moveNumbering(fen);
  return sans.map((san, index) => {
    const label = whiteToMove ? `${fullmove}. ` : index === 0 ? `${fullmove}... ` : "";
    if (!whiteToMove) fullmove += 1;
    whiteToMove = !whiteToMove;
    return { label, san };
  });
}
