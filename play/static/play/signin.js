// Sign in or sign up: one form, two buttons. The token the API gives is kept in this browser's
// local storage until "Sign out". Every page that needs a player opens through `whenSignedIn`.

import { Api, ApiError, forgetSession, obtainToken, saveSession, storedSession } from "./api.js";
import { gettext } from "./i18n.js";
import { h, render } from "./vendor/preact.mjs";

/** @typedef {{api: Api, username: string}} Session */

/**
 * The signed-in player's access, or null when nobody is signed in (or the token was revoked).
 *
 * @returns {Promise<Session | null>}
 */
export async function signedIn() {
  const session = storedSession();
  if (session === null) {
    return null;
  }
  const api = new Api(session.token);
  try {
    const me = await api.get("/players/me/");
    return { api, username: me.username };
  } catch (failure) {
    if (failure instanceof ApiError && failure.status === 401) {
      forgetSession();
      return null;
    }
    return { api, username: session.username }; // offline for now: the page catches up later
  }
}

/**
 * The element with this id, which the page's template must have.
 *
 * @param {string} id
 * @returns {HTMLElement}
 */
export function byId(id) {
  const element = document.getElementById(id);
  if (element === null) {
    throw new Error(`the page has no #${id}`);
  }
  return element;
}

/**
 * Open a page for the signed-in player: at once, or once the sign-in form in `root` is done.
 *
 * @param {HTMLElement} root
 * @param {(session: Session) => void} open
 */
export async function whenSignedIn(root, open) {
  const session = await signedIn();
  if (session === null) {
    showSignInForm(root, open);
  } else {
    open(session);
  }
}

/**
 * The sign-in form, drawn in `root`; `done` is called once signed in.
 *
 * @param {HTMLElement} root
 * @param {(session: Session) => void} done
 */
export function showSignInForm(root, done) {
  let error = "";
  let busy = false;

  /** @param {SubmitEvent} event */
  async function submit(event) {
    event.preventDefault();
    const form = /** @type {HTMLFormElement} */ (event.currentTarget);
    const kind =
      event.submitter instanceof HTMLButtonElement && event.submitter.value === "sign-up" ? "sign-up" : "sign-in";
    const field = (/** @type {string} */ name) => /** @type {HTMLInputElement} */ (form.elements.namedItem(name)).value;
    error = "";
    busy = true;
    draw();
    try {
      const token = await obtainToken(kind, field("username"), field("password"));
      const api = new Api(token);
      const me = await api.get("/players/me/");
      saveSession(token, me.username);
      done({ api, username: me.username });
      return;
    } catch (failure) {
      if (!(failure instanceof ApiError)) {
        throw failure;
      }
      error = failure.describe();
    }
    busy = false;
    draw();
  }

  function draw() {
    render(
      h(
        "form",
        { class: "sign-in", "aria-labelledby": "sign-in-title", onSubmit: submit },
        h("h1", { id: "sign-in-title" }, gettext("Play Switch")),
        h("p", {}, gettext("Sign in to play, or sign up with a new username and password: it takes a moment.")),
        h(
          "p",
          { class: "field" },
          h("label", { for: "username" }, gettext("Username")),
          h("input", { id: "username", name: "username", autocomplete: "username", required: true, maxlength: 150 }),
        ),
        h(
          "p",
          { class: "field" },
          h("label", { for: "password" }, gettext("Password")),
          h("input", {
            id: "password",
            name: "password",
            type: "password",
            autocomplete: "current-password",
            required: true,
            maxlength: 128,
          }),
        ),
        h(
          "p",
          { class: "buttons" },
          h("button", { type: "submit", value: "sign-in", disabled: busy }, gettext("Sign in")),
          h("button", { type: "submit", value: "sign-up", class: "secondary", disabled: busy }, gettext("Sign up")),
        ),
        h("p", { class: "error", role: "alert" }, error),
      ),
      root,
    );
  }

  draw();
}
