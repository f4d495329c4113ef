// The explorer page of `bookforge serve` in a real browser: headless Chromium (Debian's
// /usr/bin/chromium) driven by puppeteer-core against the real binary, on a store and a book
// made from data-samples/twic0920-2000.pgn. It plays 1.e4 c5 by clicking squares and checks
// the page against `bookforge db explore --json` and `bookforge probe --json`.
//
// Environment (set by tests/browser/CMakeLists.txt): BOOKFORGE_BIN, BOOKFORGE_SOURCE_DIR,
// BOOKFORGE_TEST_OUT (the folder for the temporary store and the screenshots).
// Exits 77 (ctest: skipped) when Chromium or the page's npm packages are missing.
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import net from "node:net";
import path from "node:path";
import { after, before, test } from "node:test";

const SKIP = 77;
const source = process.env.BOOKFORGE_SOURCE_DIR ?? path.resolve(import.meta.dirname, "../..");
const bin = process.env.BOOKFORGE_BIN ?? path.join(source, "build/bin/bookforge");
const out = process.env.BOOKFORGE_TEST_OUT ?? path.join(source, "build/tests/browser");
const chromium = process.env.BOOKFORGE_CHROMIUM ?? "/usr/bin/chromium";
const web = path.join(source, "serve/web");
const games = path.join(source, "data-samples/twic0920-2000.pgn");

function skip(reason) {
  console.log(`SKIP: ${reason}; scripts/install-deps.sh installs it`);
  process.exit(SKIP);
}
if (!fs.existsSync(chromium)) skip(`no Chromium at ${chromium}`);
if (!fs.existsSync(path.join(web, "node_modules/puppeteer-core/package.json")))
  skip(`no ${web}/node_modules (npm ci in serve/web)`);
const puppeteer = createRequire(path.join(web, "package.json"))("puppeteer-core");

const work = path.join(out, "tmp");
const store = path.join(work, "tree.sqlite");
const book = path.join(work, "twic.bin");
const bookforge = (...args) => execFileSync(bin, args, { encoding: "utf8" });

let server;
let browser;
let page;
let base;
const problems = []; // console errors, page errors, failed or refused requests

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
    probe.on("error", reject);
  });
}

// The server prints its URL when it starts listening; it is ready when its API answers.
async function startServer(port) {
  await serverPrintsUrl(port);
  for (let attempt = 0; ; ++attempt) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/info`)).ok) return;
    } catch (error) {
      if (attempt === 100) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function serverPrintsUrl(port) {
  const args = ["serve", "--db", store, "--book", book, "--host", "127.0.0.1", "--port", String(port)];
  server = spawn(bin, args);
  let output = "";
  return new Promise((resolve, reject) => {
    const onOutput = (chunk) => {
      output += chunk;
      if (output.includes(`127.0.0.1:${port}`)) resolve();
    };
    server.stdout.on("data", onOutput);
    server.stderr.on("data", onOutput);
    server.on("exit", (code) => reject(new Error(`bookforge serve exited with ${code}:\n${output}`)));
  });
}

before(async () => {
  fs.rmSync(work, { recursive: true, force: true });
  fs.mkdirSync(work, { recursive: true });
  bookforge("db", "add", "--db", store, games);
  bookforge("build", "-o", book, games);
  const port = await freePort();
  await startServer(port);
  base = `http://127.0.0.1:${port}`;

  browser = await puppeteer.launch({ executablePath: chromium, headless: true, args: ["--no-sandbox"] });
  page = await browser.newPage();
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`console: ${message.text()}`);
  });
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  page.on("requestfailed", (request) => {
    problems.push(`failed: ${request.url()} ${request.failure()?.errorText}`);
  });
  page.on("response", (response) => {
    if (response.status() >= 400) problems.push(`HTTP ${response.status()}: ${response.url()}`);
  });
  await page.setViewport({ width: 1280, height: 800 });
});

after(async () => {
  await browser?.close();
  server?.kill("SIGINT");
});

// The page marks the table with the moves it shows once their numbers are in.
async function waitForPosition(play) {
  try {
    await page.waitForSelector(`#moves[aria-busy="false"][data-play="${play}"]`);
  } catch (error) {
    const shown = await page.$eval("#moves", (table) => table.dataset.play);
    throw new Error(`the page shows play=${shown} (URL ${page.url()}), not ${play}: ${error.message}`);
  }
}

function urlPlay() {
  return new URL(page.url()).searchParams.get("play") ?? "";
}

async function clickSquare(square) {
  await page.click(`#board .square[data-square="${square}"]`);
}

async function playByClicks(from, to) {
  await clickSquare(from);
  await clickSquare(to);
}

async function dragPiece(from, to) {
  const center = async (square) => {
    const box = await (await page.$(`#board .square[data-square="${square}"]`)).boundingBox();
    return [box.x + box.width / 2, box.y + box.height / 2];
  };
  const [fromX, fromY] = await center(from);
  const [toX, toY] = await center(to);
  await page.mouse.move(fromX, fromY);
  await page.mouse.down();
  await page.mouse.move(toX, toY, { steps: 8 });
  await page.mouse.up();
}

const number = (text) => Number(text.replace(/[^0-9.]/g, ""));

function readTable() {
  return page.$$eval("#moves tbody tr[data-uci], #total", (rows) =>
    rows.map((row) => {
      const cell = (name) => row.querySelector(`.${name}`)?.textContent ?? "";
      return {
        uci: row.dataset.uci ?? "total",
        games: cell("games"),
        white: cell("white"),
        draws: cell("draws"),
        black: cell("black"),
      };
    }),
  );
}

// The page shows percentages with one decimal, `db explore` with two: both round the same
// number, so they differ by at most 0.05 + 0.005.
function assertPercent(shown, expected, what) {
  assert.ok(Math.abs(number(shown) - expected) <= 0.0551, `${what}: page ${shown}, db explore ${expected}`);
}

// The table equals `db explore --json` for the moves played (SAN, space-separated), row by row
// and in the total. The total's percentages come from the rows' counts: twic0920 has no game
// without a result, so each row's counts are its games times its percentages.
async function assertTableMatchesExplore(moves, sliceFlags = []) {
  const args = ["db", "explore", "--db", store, "--json", ...sliceFlags];
  if (moves) args.push("--moves", moves);
  const expected = JSON.parse(bookforge(...args));
  const rows = await readTable();
  const total = rows.pop();
  assert.deepEqual(
    rows.map((row) => row.uci),
    expected.moves.map((move) => move.uci),
    `rows after "${moves}"`,
  );
  const counts = { white: 0, draws: 0, black: 0 };
  expected.moves.forEach((move, index) => {
    const row = rows[index];
    assert.equal(number(row.games), move.games, `games of ${move.uci}`);
    for (const result of ["white", "draws", "black"]) {
      assertPercent(row[result], move[result], `${result} of ${move.uci}`);
      counts[result] += Math.round((move[result] * move.games) / 100);
    }
  });
  assert.equal(number(total.games), expected.games, "total games");
  assert.equal(counts.white + counts.draws + counts.black, expected.games, "every game has a result");
  for (const result of ["white", "draws", "black"])
    assertPercent(total[result], (100 * counts[result]) / expected.games, `total ${result}`);
}

test("the start position shows the store's first moves", async () => {
  await page.goto(base);
  await waitForPosition("");
  await assertTableMatchesExplore("");
});

test("filter controls are shown only for what the store can filter on", async () => {
  const { filters } = await (await fetch(`${base}/api/info`)).json();
  assert.deepEqual(filters, { speeds: true, ratings: true, months: true });
  assert.equal(await page.$eval("#filters", (form) => form.hidden), false);
  for (const name of ["speeds", "ratings", "since", "until"])
    assert.ok((await page.$(`#filters [name="${name}"]`)) !== null, `${name} control`);
  for (const value of ["2800", "unrated"]) assert.ok(await page.$(`#filters [name="ratings"][value="${value}"]`));
});

// The table says which filter its numbers are of once they are in.
async function waitForFilter(filter) {
  await page.waitForSelector(`#moves[aria-busy="false"][data-filter="${filter}"]`);
}

test("ticking rating bands shows the counts of those bands, as db explore --ratings counts them", async () => {
  await page.click("#filters summary");
  await page.click('#filters [name="ratings"][value="2500"]');
  await waitForFilter("ratings=2500");
  await assertTableMatchesExplore("", ["--ratings", "2500"]);
  const unfiltered = JSON.parse(bookforge("db", "explore", "--db", store, "--json"));
  assert.ok(number((await readTable()).at(-1).games) < unfiltered.games, "the filter leaves games out");
  assert.match(await page.$eval("#status", (status) => status.textContent), /Only games of ratings=2500/);
  const expected = JSON.parse(bookforge("db", "explore", "--db", store, "--json", "--ratings", "2500"));
  const first = expected.moves[0];
  const years = first.first_year === first.last_year ? `${first.first_year}` : `${first.first_year}–${first.last_year}`;
  const firstRow = await page.$eval("#moves tbody tr[data-uci] .years", (cell) => cell.textContent);
  assert.equal(firstRow, years, "years of the first move");

  await page.click('#filters [name="ratings"][value="2500"]');
  await waitForFilter("none");
  await assertTableMatchesExplore("");
  await page.click("#filters summary");
});

test("1.e4 c5 played by clicking squares updates the URL, the line and the table", async () => {
  await playByClicks("e2", "e4");
  await waitForPosition("e2e4");
  await page.waitForSelector('#board .pieces [data-square="e4"]');
  await playByClicks("c7", "c5");
  await waitForPosition("e2e4,c7c5");
  assert.equal(urlPlay(), "e2e4,c7c5");
  assert.match(await page.$eval("#line", (line) => line.textContent), /1\.\s*e4\s*c5/);
  await assertTableMatchesExplore("e4 c5");
});

test("the book panel lists the book's moves and weights for the position", async () => {
  const expected = JSON.parse(bookforge("probe", book, "--moves", "e4 c5", "--json"));
  assert.ok(expected.moves.length > 0, "the book has moves after 1.e4 c5");
  const shown = await page.$$eval("#books tr[data-uci]", (rows) =>
    rows.map((row) => ({ uci: row.dataset.uci, weight: row.querySelector(".weight").textContent })),
  );
  assert.deepEqual(
    shown.map((row) => [row.uci, number(row.weight)]),
    expected.moves.map((move) => [move.uci, move.weight]),
  );
  assert.match(await page.$eval("#books", (books) => books.textContent), /twic\.bin/);
});

test("the move under the pointer in the table is drawn as an arrow on the board", async () => {
  await page.hover('#moves tbody tr[data-uci="g1f3"] .games');
  await page.waitForSelector("#board .arrows .arrow");
  await page.hover("#line");
  await page.waitForSelector("#board .arrows .arrow", { hidden: true });
});

test("the back button and the left arrow key step back, the table follows", async () => {
  await page.click("#back");
  await waitForPosition("e2e4");
  assert.equal(urlPlay(), "e2e4");
  await assertTableMatchesExplore("e4");

  await page.keyboard.press("ArrowLeft");
  await waitForPosition("");
  assert.equal(urlPlay(), "");
  await assertTableMatchesExplore("");

  const entries = await page.evaluate(() => history.length);
  await page.keyboard.press("ArrowLeft");
  assert.equal(await page.evaluate(() => history.length), entries, "back at the start adds no history entry");
});

test("the forward button and the right arrow key replay the line kept after stepping back", async () => {
  await page.click("#forward");
  await waitForPosition("e2e4");
  await page.keyboard.press("ArrowRight");
  await waitForPosition("e2e4,c7c5");
  assert.equal(urlPlay(), "e2e4,c7c5");
});

test("the browser's history returns to the previous position", async () => {
  await page.goBack();
  await waitForPosition("e2e4");
  assert.equal(urlPlay(), "e2e4");
  await assertTableMatchesExplore("e4");
  await page.goForward();
  await waitForPosition("e2e4,c7c5");
});

test("a piece dragged to a legal square plays the move", async () => {
  await dragPiece("g1", "f3");
  await waitForPosition("e2e4,c7c5,g1f3");
  assert.equal(urlPlay(), "e2e4,c7c5,g1f3");
  await page.click("#back");
  await waitForPosition("e2e4,c7c5");
});

test("an illegal move is refused: the board takes the next legal one", async () => {
  await playByClicks("d2", "d5");
  await playByClicks("d2", "d4");
  await waitForPosition("e2e4,c7c5,d2d4");
  assert.equal(urlPlay(), "e2e4,c7c5,d2d4");
  await page.click("#back");
  await waitForPosition("e2e4,c7c5");
});

test("clicking a row of the table plays its move", async () => {
  await page.click('#moves tbody tr[data-uci="g1f3"]');
  await waitForPosition("e2e4,c7c5,g1f3");
  assert.equal(urlPlay(), "e2e4,c7c5,g1f3");
  await assertTableMatchesExplore("e4 c5 Nf3");
});

test("a link to a position reopens it, and so does a reload", async () => {
  await page.goto(`${base}/?play=e2e4,c7c5`);
  await waitForPosition("e2e4,c7c5");
  await assertTableMatchesExplore("e4 c5");
  await page.reload();
  await waitForPosition("e2e4,c7c5");
  assert.equal(urlPlay(), "e2e4,c7c5");
  await assertTableMatchesExplore("e4 c5");
});

test("a position reached mostly by another move order says so, as db explore counts it", async () => {
  const uci = "g1f3,g8f6,c2c4,c7c5,b1c3,b8c6,d2d4,c5d4,f3d4";
  await page.goto(`${base}/?play=${uci}`);
  await waitForPosition(uci);
  const explore = JSON.parse(
    bookforge("db", "explore", "--db", store, "--json", "--moves", uci.split(",").join(" ")),
  );
  assert.equal(explore.mostly_transposed, true);
  const status = await page.$eval("#status", (element) => element.textContent);
  assert.match(status, new RegExp(`another move order \\(${explore.by_other_orders} games; ${explore.by_line} by this line\\)`));
  // The line it was reached by in most games shows no such note.
  await page.goto(`${base}/?play=e2e4,c7c5`);
  await waitForPosition("e2e4,c7c5");
  assert.doesNotMatch(await page.$eval("#status", (element) => element.textContent), /another move order/);
});

test("a link from another start position keeps its fen and numbers the moves from it", async () => {
  const sicilian = "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq c6 0 2";
  await page.goto(`${base}/?${new URLSearchParams({ fen: sicilian, play: "g1f3" })}`);
  await waitForPosition("g1f3");
  assert.match(await page.$eval("#line", (line) => line.textContent), /^2\.\s*Nf3$/);
  await playByClicks("d7", "d6");
  await waitForPosition("g1f3,d7d6");
  const url = new URL(page.url());
  assert.equal(url.searchParams.get("fen"), sicilian);
  assert.equal(urlPlay(), "g1f3,d7d6");
  const explore = bookforge("db", "explore", "--db", store, "--json", "--moves", "e4 c5 Nf3 d6");
  const expected = JSON.parse(explore);
  assert.deepEqual(
    (await readTable()).slice(0, -1).map((row) => [row.uci, number(row.games)]),
    expected.moves.map((move) => [move.uci, move.games]),
  );
  await page.goto(`${base}/?play=e2e4,c7c5`);
  await waitForPosition("e2e4,c7c5");
});

test("a pawn reaching the last rank is promoted to the piece picked in the dialog", async () => {
  await page.goto(`${base}/?fen=${encodeURIComponent("7k/P7/8/8/8/8/8/K7 w - - 0 1")}`);
  await waitForPosition("");
  await playByClicks("a7", "a8");
  const knight = await page.waitForSelector('#board [data-piece="wn"]', { visible: true });
  await knight.click();
  await waitForPosition("a7a8n");
  assert.match(await page.$eval("#line", (line) => line.textContent), /a8=N/);
  await page.goto(`${base}/?play=e2e4,c7c5`);
  await waitForPosition("e2e4,c7c5");
});

test("the engine button shows a line for the position", async () => {
  // Each tab names itself, so that two tabs' searches do not stop each other.
  const asked = page.waitForRequest((r) => r.url().includes("/api/engine?"));
  await page.click("#engine-go");
  assert.match((await asked).url(), /[?&]client=\d+-\d+(&|$)/);
  await page.waitForSelector("#engine-line .pv");
  assert.match(await page.$eval("#engine-line .pv", (pv) => pv.textContent), /^2\. \S+/);
});

// The player tab's table equals `db explore --player --json` for the player, the colour and the
// moves played (SAN, space-separated): the moves, their games with a result, their results
// and the player's performance.
function explorePlayer(player, color, moves = "") {
  const args = ["db", "explore", "--db", store, "--json", "--player", player, "--color", color];
  if (moves) args.push("--moves", moves);
  return JSON.parse(bookforge(...args));
}

async function assertPlayerTableMatches(player, color, moves) {
  const expected = explorePlayer(player, color, moves);
  assert.ok(expected.moves.length > 0, `${player} as ${color} after "${moves}" has moves`);
  const rows = await page.$$eval("#moves tbody tr[data-uci]", (rows) =>
    rows.map((row) => {
      const cell = (name) => row.querySelector(`.${name}`).textContent;
      const [games, perf, white, draws, black] = ["games", "perf", "white", "draws", "black"].map(cell);
      return { uci: row.dataset.uci, games, perf, white, draws, black };
    }),
  );
  const what = `${player} as ${color} after "${moves}"`;
  assert.deepEqual(rows.map((row) => row.uci), expected.moves.map((move) => move.uci), what);
  expected.moves.forEach((move, index) => {
    const row = rows[index];
    const results = move.white + move.draws + move.black;
    assert.equal(number(row.games), results, `${what}: games of ${move.uci}`);
    // Both round the same performance: db explore with printf (a half to even), the API with
    // lround (a half away from zero), so a performance of exactly x.5 may differ by one.
    const perf = `${what}: performance of ${move.uci}: page ${row.perf}, db explore ${move.performance}`;
    if (move.performance === null) assert.equal(row.perf, "–", perf);
    else assert.ok(Math.abs(number(row.perf) - move.performance) <= 1, perf);
    for (const result of ["white", "draws", "black"])
      assertPercent(row[result], (100 * move[result]) / results, `${what}: ${result} of ${move.uci}`);
  });
}

async function waitForPlayer(player, play) {
  await page.waitForSelector(`#moves[aria-busy="false"][data-player="${player}"][data-play="${play}"]`);
}

const PLAYER = "Adhiban,Baskaran";

test("the player tab suggests names from the store and shows the player's tree", async () => {
  await page.goto(base);
  await waitForPosition("");
  await page.click("#tab-player");
  assert.equal(await page.$eval("#player", (form) => form.hidden), false);
  await page.type('#player [name="player"]', "adhib");
  await page.waitForSelector(`#player-names option[value="${PLAYER}"]`);
  const expectedGames = explorePlayer(PLAYER, "white").player_games + explorePlayer(PLAYER, "black").player_games;
  const label = await page.$eval(`#player-names option[value="${PLAYER}"]`, (option) => option.label);
  assert.equal(number(label), expectedGames, "the suggestion's games");
  await page.$eval('#player [name="player"]', (input) => (input.value = ""));
  await page.type('#player [name="player"]', PLAYER);
  await page.keyboard.press("Enter");
  await waitForPlayer(`${PLAYER}|white`, "");
  await assertPlayerTableMatches(PLAYER, "white", "");
  assert.equal(new URL(page.url()).searchParams.get("player"), PLAYER);
  assert.match(await page.$eval("#moves th.perf", (th) => th.title), /player's performance/);

  // A line played in the tab walks the player's tree.
  await page.click('#moves tbody tr[data-uci="d2d4"]');
  await waitForPlayer(`${PLAYER}|white`, "d2d4");
  await assertPlayerTableMatches(PLAYER, "white", "d4");
  const [reply] = explorePlayer(PLAYER, "white", "d4").moves;
  await page.click(`#moves tbody tr[data-uci="${reply.uci}"]`);
  await waitForPlayer(`${PLAYER}|white`, `d2d4,${reply.uci}`);
  await assertPlayerTableMatches(PLAYER, "white", `d4 ${reply.san}`);
});

test("what the player answers to 1.e4 as Black, and how they score with it, is one click", async () => {
  await page.goto(`${base}/?play=e2e4&player=${encodeURIComponent(PLAYER)}&color=white`);
  await waitForPlayer(`${PLAYER}|white`, "e2e4");
  await page.click('#player [name="color"][value="black"]');
  await waitForPlayer(`${PLAYER}|black`, "e2e4");
  await assertPlayerTableMatches(PLAYER, "black", "e4");
  const [first] = explorePlayer(PLAYER, "black", "e4").moves;
  const title = await page.$eval(`#moves tbody tr[data-uci="${first.uci}"] .perf`, (cell) => cell.title);
  assert.equal(title, `${PLAYER} scored ${first.score.toFixed(1)}%`);
  // The board turns to the player's side: Black at the bottom, a1 at the top.
  await page.waitForFunction(() => {
    const top = (square) =>
      document.querySelector(`#board .square[data-square="${square}"]`).getBoundingClientRect().top;
    return top("a1") < top("a8");
  });
  // The browser's back button returns to the White view, and the colour toggle with it.
  await page.goBack();
  await waitForPlayer(`${PLAYER}|white`, "e2e4");
  assert.equal(await page.$eval('#player [name="color"][value="white"]', (radio) => radio.checked), true);
  await page.goForward();
  await waitForPlayer(`${PLAYER}|black`, "e2e4");
  // Back to the whole store's games.
  await page.click("#tab-store");
  await waitForPosition("e2e4");
  await page.waitForSelector('#moves[data-player=""]');
  const controlsShown = await page.$eval("#player", (form) => form.checkVisibility());
  assert.equal(controlsShown, false, "the player's controls are put away");
  await assertTableMatchesExplore("e4");
});

// The chart's months are `db explore --history`'s, under the filter in use.
async function assertHistoryMatches(moves, sliceFlags = []) {
  const args = ["db", "explore", "--db", store, "--json", "--history", ...sliceFlags];
  if (moves) args.push("--moves", moves);
  const expected = JSON.parse(bookforge(...args)).history.months;
  assert.ok(expected.length > 1, `months after "${moves}"`);
  const shown = await page.$$eval("#history .month", (bars) =>
    bars.map(({ dataset }) => ({
      month: dataset.month,
      white: Number(dataset.white),
      draws: Number(dataset.draws),
      black: Number(dataset.black),
    })),
  );
  const months = expected.map(({ month, white, draws, black }) => ({ month, white, draws, black }));
  assert.deepEqual(shown, months, `history after "${moves}"`);
  assert.equal(await page.$eval("#history", (section) => section.checkVisibility()), true);
}

test("the history chart draws the position's games by month, as db explore --history counts them", async () => {
  await page.goto(`${base}/?play=e2e4,c7c5`);
  await waitForPosition("e2e4,c7c5");
  await assertHistoryMatches("e4 c5");
  await page.click("#filters summary");
  await page.click('#filters [name="ratings"][value="2500"]');
  await waitForFilter("ratings=2500");
  await assertHistoryMatches("e4 c5", ["--ratings", "2500"]);
  await page.click('#filters [name="ratings"][value="2500"]');
  await waitForFilter("none");
  await page.click("#filters summary");
});

test("a pasted game takes the board to where it left the tree, as db novelty finds it", async () => {
  // A lichess-style game with clock comments, leaving the store's games at 3.h4.
  const pgn = [
    '[Event "Casual"]\n[White "a"]\n[Black "b"]\n[Result "*"]\n',
    "1. Nf3 { [%clk 0:03:00] } g6 { [%clk 0:03:00] } 2. e4 c5 3. h4 *\n",
  ].join("\n");
  const file = path.join(work, "pasted.pgn");
  fs.writeFileSync(file, pgn);
  const expected = JSON.parse(bookforge("db", "novelty", "--db", store, "--json", file)).games[0];
  assert.equal(expected.left_tree, true);
  const before = expected.path.slice(0, -1).map((move) => move.uci).join(",");
  await page.$eval('#novelty [name="pgn"]', (area, text) => (area.value = text), pgn);
  await page.click('#novelty [type="submit"]');
  await waitForPosition(before);
  assert.equal(urlPlay(), before);
  const novelty = expected.novelty;
  const output = await page.$eval("#novelty output", (o) => o.textContent);
  const where = `${novelty.move_number}\\.${novelty.san}: ${novelty.position_games} games`;
  assert.match(output, new RegExp(`Left the tree at ${where}`));
  // The novelty is the next move of the line: forward plays it.
  assert.equal(await page.$eval("#line .future", (button) => button.textContent), novelty.san);
  await page.keyboard.press("ArrowRight");
  await waitForPosition(`${before},${novelty.uci}`);
});

test("the keyboard walks the table's rows, Enter plays one, and the focus is visible", async () => {
  await page.goto(`${base}/?play=e2e4`);
  await waitForPosition("e2e4");
  const ucis = await page.$$eval("#moves tbody tr[data-uci]", (rows) => rows.map((row) => row.dataset.uci));
  await page.focus("#moves tbody tr[data-uci]");
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("ArrowUp");
  const focused = await page.evaluate(() => {
    const row = document.activeElement;
    const { outlineStyle, outlineWidth } = getComputedStyle(row);
    return { uci: row.dataset.uci, outlineStyle, outlineWidth: parseFloat(outlineWidth) };
  });
  assert.equal(focused.uci, ucis[1]);
  assert.notEqual(focused.outlineStyle, "none", "the focused row shows it");
  assert.ok(focused.outlineWidth >= 2, `outline ${focused.outlineWidth}px`);
  await page.keyboard.press("Enter");
  await waitForPosition(`e2e4,${ucis[1]}`);
  await page.keyboard.press("ArrowLeft");
  await waitForPosition("e2e4");
});

// Runs in the page: the result bars must read without telling hues apart: neighbouring parts
// differ in lightness (contrast of at least 2:1) and each label has WCAG AA's 4.5:1 on its part.
function barColourProblems() {
  const rgb = (text) => text.match(/[\d.]+/g).slice(0, 3).map(Number);
  const luminance = (text) => {
    const [r, g, b] = rgb(text).map((v) => {
      const c = v / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const contrast = (a, b) => {
    const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
    return (hi + 0.05) / (lo + 0.05);
  };
  const problems = [];
  const bar = document.querySelector("#moves .bar");
  const parts = ["white", "draws", "black"].map((name) => bar.querySelector(`.${name}`));
  for (const part of parts) {
    const { backgroundColor, color } = getComputedStyle(part);
    const ratio = contrast(backgroundColor, color);
    if (ratio < 4.5) problems.push(`${part.className}: label contrast ${ratio.toFixed(2)}`);
  }
  for (let i = 1; i < parts.length; ++i) {
    const [a, b] = [parts[i - 1], parts[i]];
    const ratio = contrast(getComputedStyle(a).backgroundColor, getComputedStyle(b).backgroundColor);
    if (ratio < 2) problems.push(`${a.className}/${b.className}: contrast ${ratio.toFixed(2)}`);
  }
  return problems;
}

test("the white / draw / black bar reads by lightness, with readable labels", async () => {
  assert.deepEqual(await page.evaluate(barColourProblems), []);
});

// Runs in the page: what a user would have to scroll sideways to see. The page must be no wider
// than the viewport, and no element or run of text may reach past its left or right edge,
// unless it is not rendered or an ancestor clips it (overflow hidden or clip) inside the
// viewport. A scrolling box does not excuse what it holds: the user would still scroll. Only
// the outermost culprits are named, not everything inside them.
function sidewaysOverflow() {
  const width = document.documentElement.clientWidth;
  const problems = [];
  const pageWidth = document.documentElement.scrollWidth;
  if (pageWidth > width) problems.push(`the page is ${pageWidth}px wide`);
  const clippedInside = (node) => {
    for (let box = node.parentElement; box; box = box.parentElement) {
      const { overflowX } = getComputedStyle(box);
      if (overflowX !== "hidden" && overflowX !== "clip") continue;
      const { left, right } = box.getBoundingClientRect();
      if (left >= -0.5 && right <= width + 0.5) return true;
    }
    return false;
  };
  const name = (element) => {
    const classes = [...element.classList].map((name) => `.${name}`).join("");
    return `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ""}${classes}`;
  };
  const named = new Set();
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const element = node.nodeType === Node.TEXT_NODE ? node.parentElement : node;
    if (node.nodeType === Node.TEXT_NODE && !node.data.trim()) continue;
    if (named.has(node.parentElement)) {
      named.add(node);
      continue;
    }
    if (!element.checkVisibility({ visibilityProperty: true })) continue;
    let box = node;
    if (node.nodeType === Node.TEXT_NODE) {
      box = document.createRange();
      box.selectNodeContents(node);
    }
    const { left, right, width: boxWidth } = box.getBoundingClientRect();
    if (boxWidth === 0 || (left >= -0.5 && right <= width + 0.5) || clippedInside(node)) continue;
    const what = node === element ? name(element) : `"${node.data.trim().slice(0, 30)}" in ${name(element)}`;
    named.add(node);
    problems.push(`${what} spans ${Math.round(left)}..${Math.round(right)}px`);
  }
  return { width, problems };
}

// Runs in the page: a percentage shown in a result bar lies inside its own segment with a
// little room on both sides, so that two never run into each other ("19.5%19.5%"), and on one
// line; a segment wide enough for any label shows its own. Labels hidden (not rendered,
// invisible or transparent) do not count.
function barLabelProblems() {
  const ROOM = 2; // px between a label and its segment's edges
  const WIDE_ENOUGH = 60; // px: "100.0%" fits with room to spare
  const problems = [];
  const isShown = (element) =>
    element.checkVisibility({ visibilityProperty: true, opacityProperty: true }) &&
    !/^rgba\(.*,\s*0\)$/.test(getComputedStyle(element).color);
  const row = (bar) => bar.closest("tr")?.dataset.uci ?? "total";
  for (const bar of document.querySelectorAll(".bar")) {
    if (!bar.checkVisibility()) continue;
    for (const segment of bar.children) {
      const box = segment.getBoundingClientRect();
      const walker = document.createTreeWalker(segment, NodeFilter.SHOW_TEXT);
      let labelled = false;
      for (let text = walker.nextNode(); text; text = walker.nextNode()) {
        if (!text.data.trim() || !isShown(text.parentElement)) continue;
        labelled = true;
        const range = document.createRange();
        range.selectNodeContents(text);
        const { left, right } = range.getBoundingClientRect();
        const where = `${row(bar)}: "${text.data}" (${Math.round(right - left)}px)`;
        if (left < box.left + ROOM - 0.5 || right > box.right - ROOM + 0.5)
          problems.push(`${where} does not fit its ${Math.round(box.width)}px segment`);
        if (range.getClientRects().length > 1) problems.push(`${where} wraps`);
      }
      if (!labelled && box.width >= WIDE_ENOUGH)
        problems.push(`${row(bar)}: a ${Math.round(box.width)}px segment hides its label`);
    }
  }
  return problems;
}

// Runs in the page: results written in a cell ("½-½") that break over two lines.
function wrappedResults() {
  return [...document.querySelectorAll(".top-games .result")]
    .filter((cell) => {
      const range = document.createRange();
      range.selectNodeContents(cell);
      return cell.checkVisibility() && range.getClientRects().length > 1;
    })
    .map((cell) => cell.textContent);
}

async function assertFitsSideways(what) {
  const { width, problems } = await page.evaluate(sidewaysOverflow);
  assert.deepEqual(problems.slice(0, 12), [], `${what}: past the edges of the ${width}px viewport`);
  assert.deepEqual(await page.evaluate(barLabelProblems), [], `${what}: result bar labels`);
}

// The parts of the table a user cannot do without, at any width: the move, its game count and
// its results; and a board large enough to play on.
async function assertUsable(what) {
  const board = await page.$eval("#board", (element) => element.getBoundingClientRect().toJSON());
  assert.ok(board.width >= 280, `${what}: the board is ${board.width}px wide`);
  const hidden = await page.$$eval("#moves tbody tr[data-uci]", (rows) =>
    rows.flatMap((row) =>
      [".move", ".games", ".result .bar"]
        .filter((part) => !row.querySelector(part).checkVisibility({ visibilityProperty: true }))
        .map((part) => `${row.dataset.uci} ${part}`),
    ),
  );
  assert.deepEqual(hidden, [], `${what}: hidden parts of the table`);
}

// The board redraws itself at its new size a moment after the page is resized.
async function resize(screen) {
  await page.setViewport(screen);
  await page.waitForFunction(() => {
    const board = document.querySelector("#board");
    return Math.abs(board.firstElementChild.getBoundingClientRect().width - board.clientWidth) < 1;
  });
}

// The widths photographed: a phone, a tablet upright, a tablet on its side, a laptop.
const SCREENS = [
  { width: 390, height: 844 },
  { width: 768, height: 1024 },
  { width: 1024, height: 768 },
  { width: 1280, height: 800 },
];

for (const screen of SCREENS) {
  test(`at ${screen.width}px wide the whole page fits the screen's width`, async () => {
    await resize(screen);
    await page.goto(`${base}/?play=e2e4,c7c5`);
    await waitForPosition("e2e4,c7c5");
    await page.waitForSelector("#games:not([hidden])");
    await page.screenshot({ path: path.join(out, `explorer-${screen.width}.png`), fullPage: true });
    await assertFitsSideways(`${screen.width}px`);
    assert.deepEqual(await page.evaluate(wrappedResults), [], "results on two lines");
    await assertUsable(`${screen.width}px`);
    // The filters, unfolded, wrap within the width too.
    await page.click("#filters summary");
    await assertFitsSideways(`${screen.width}px, filters unfolded`);
    await page.click("#filters summary");
  });
}

// The player tab, the history chart and the novelty form at a phone's and a laptop's size.
for (const screen of [SCREENS[0], SCREENS[3]]) {
  test(`at ${screen.width}px the player tab, the chart and the novelty form fit`, async () => {
    await resize(screen);
    await page.goto(`${base}/?play=e2e4,c7c5&player=${encodeURIComponent(PLAYER)}&color=black`);
    await waitForPlayer(`${PLAYER}|black`, "e2e4,c7c5");
    assert.equal(await page.$eval("#player", (form) => form.hidden), false);
    await page.screenshot({ path: path.join(out, `explorer-player-${screen.width}.png`), fullPage: true });
    await assertFitsSideways(`${screen.width}px, player tab`);
    await assertUsable(`${screen.width}px, player tab`);
    const perfShown = await page.$$eval("#moves tbody tr[data-uci] .perf", (cells) =>
      cells.map((cell) => cell.checkVisibility({ visibilityProperty: true })),
    );
    assert.ok(perfShown.length > 0 && perfShown.every(Boolean), `${screen.width}px: the player's performance is shown`);
    await page.click("#tab-store");
    await waitForPosition("e2e4,c7c5");
    await page.waitForSelector("#history:not([hidden]) .month");
    await page.screenshot({ path: path.join(out, `explorer-history-${screen.width}.png`), fullPage: true });
    await assertFitsSideways(`${screen.width}px, history and novelty`);
    const chart = await page.$eval("#history svg", (svg) => svg.getBoundingClientRect().toJSON());
    assert.ok(chart.width > 200 && chart.height > 50, `the chart is ${chart.width}x${chart.height}`);
  });
}

test("on a phone-sized screen the board is above the table", async () => {
  await resize({ width: 390, height: 844 });
  await waitForPosition("e2e4,c7c5");
  const board = await page.$eval("#board", (element) => element.getBoundingClientRect().toJSON());
  const table = await page.$eval("#moves", (element) => element.getBoundingClientRect().toJSON());
  assert.ok(board.bottom <= table.top, "the board is above the table");
});

test("at widths from 320 to 1920 px, every 10 px, nothing reaches past the viewport", async () => {
  for (let width = 320; width <= 1920; width += 10) {
    await resize({ width, height: 800 });
    await assertFitsSideways(`${width}px`);
    await assertUsable(`${width}px`);
  }
});

// After 1.e4 c5 (the Sicilian Defense) the moves lead to Sicilian variations: the column names
// them, in full and not cut off, with the whole name in the cell's tooltip.
test("at 1280px the Opening column shows each move's variation", async () => {
  await resize({ width: 1280, height: 800 });
  const explorer = await (await fetch(`${base}/api/explorer?play=e2e4,c7c5&moves=100`)).json();
  const named = explorer.moves.filter((move) => move.opening?.name.includes(": "));
  assert.ok(named.length >= 3, "moves to named variations");
  for (const { uci, opening } of named) {
    const variation = opening.name.slice(opening.name.indexOf(": ") + 2);
    const cell = await page.$eval(`#moves tbody tr[data-uci="${uci}"] .name`, (element) => ({
      text: element.textContent,
      title: element.title,
      shown: element.checkVisibility({ visibilityProperty: true }),
      cut: element.scrollWidth > element.clientWidth || element.scrollHeight > element.clientHeight,
    }));
    assert.ok(cell.shown, `${uci}: the Opening column is shown`);
    assert.ok(cell.text.includes(variation), `${uci}: "${cell.text}" names ${variation}`);
    assert.equal(cell.cut, false, `${uci}: "${cell.text}" is cut off`);
    assert.ok(cell.title.includes(opening.name), `${uci}: the tooltip "${cell.title}" has the full name`);
  }
});

test("no console error and no failed request", () => {
  assert.deepEqual(problems, []);
});
