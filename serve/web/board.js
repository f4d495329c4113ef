// The board (cm-chessboard). It knows no chess rules: the server's legal moves for the position
// shown decide which clicks and drags become moves.
import { Chessboard, FEN, INPUT_EVENT_TYPE, COLOR } from "/vendor/cm-chessboard/src/Chessboard.js";
import { Arrows, ARROW_TYPE } from "/vendor/cm-chessboard/src/extensions/arrows/Arrows.js";
import { Markers, MARKER_TYPE } from "/vendor/cm-chessboard/src/extensions/markers/Markers.js";
import {
  PromotionDialog,
  PROMOTION_DIALOG_RESULT_TYPE,
} from "/vendor/cm-chessboard/src/extensions/promotion-dialog/PromotionDialog.js";

const ASSETS = "/vendor/cm-chessboard/assets/";

export class ExplorerBoard {
  // onMove(uci) is called with a legal move the user made.
  constructor(element, onMove) {
    this.onMove = onMove;
    this.legal = [];
    this.fen = FEN.start;
    this.board = new Chessboard(element, {
      position: FEN.start,
      assetsUrl: ASSETS,
      style: { pieces: { file: "pieces/standard.svg" }, animationDuration: 150 },
      extensions: [{ class: Arrows }, { class: Markers }, { class: PromotionDialog }],
    });
    this.board.enableMoveInput((event) => this.handleInput(event));
  }

  // position: the answer of /api/position; lastMove: the UCI move that led to it, if any.
  // Resolves once the pieces stand still: the board takes no input while they move.
  show(position, lastMove) {
    this.legal = position.legal;
    this.fen = position.fen;
    this.board.removeArrows();
    this.board.removeMarkers(MARKER_TYPE.square);
    if (lastMove) {
      this.board.addMarker(MARKER_TYPE.square, lastMove.slice(0, 2));
      this.board.addMarker(MARKER_TYPE.square, lastMove.slice(2, 4));
    }
    return this.board.setPosition(position.fen, true);
  }

  // Draws the move (UCI) that the pointer is on in a table as an arrow; null clears it.
  pointAt(uci) {
    this.board.removeArrows();
    if (uci) this.board.addArrow(ARROW_TYPE.info, uci.slice(0, 2), uci.slice(2, 4));
  }

  // color: "white" or "black", the side at the bottom.
  orient(color) {
    const wanted = color === "black" ? COLOR.black : COLOR.white;
    if (this.board.getOrientation() !== wanted) this.board.setOrientation(wanted, true);
  }

  flip() {
    const turned = this.board.getOrientation() === COLOR.white ? COLOR.black : COLOR.white;
    this.board.setOrientation(turned, true);
  }

  movesFrom(square) {
    return this.legal.filter((move) => move.uci.startsWith(square));
  }

  handleInput(event) {
    switch (event.type) {
      case INPUT_EVENT_TYPE.moveInputStarted: {
        const moves = this.movesFrom(event.squareFrom);
        for (const move of moves) this.board.addMarker(MARKER_TYPE.dot, move.uci.slice(2, 4));
        return moves.length > 0;
      }
      case INPUT_EVENT_TYPE.validateMoveInput:
        return this.finishMove(event.squareFrom, event.squareTo);
      case INPUT_EVENT_TYPE.moveInputCanceled:
      case INPUT_EVENT_TYPE.moveInputFinished:
        this.board.removeMarkers(MARKER_TYPE.dot);
        return true;
      default:
        return true;
    }
  }

  // A promotion is four legal moves from the same squares: the dialog picks one.
  finishMove(from, to) {
    const moves = this.movesFrom(from + to);
    if (moves.length === 1) this.onMove(moves[0].uci);
    if (moves.length > 1) {
      const color = to[1] === "8" ? COLOR.white : COLOR.black;
      this.board.showPromotionDialog(to, color, (result) => {
        if (result.type === PROMOTION_DIALOG_RESULT_TYPE.pieceSelected)
          this.onMove(from + to + result.piece.charAt(1));
        else this.board.setPosition(this.fen, true); // the pawn goes back
      });
    }
    return moves.length > 0;
  }
}
