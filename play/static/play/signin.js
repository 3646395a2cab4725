// Sign in or sign up: one form, two buttons. The token the API gives is kept in this browser's
// local storage until "Sign out".

import { Api, ApiError, forgetSession, obtainToken, saveSession, storedSession } from "./api.js";
import { h } from "./dom.js";

/**
 * The signed-in player's access, or null when nobody is signed in (or the token was revoked).
 *
 * @returns {Promise<{api: Api, username: string} | null>}
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
 * The sign-in form; `done` is called once signed in.
 *
 * @param {(session: {api: Api, username: string}) => void} done
 */
export function signInForm(done) {
  const error = h("p", { class: "error", role: "alert" });
  const username = h("input", {
    id: "username",
    name: "username",
    autocomplete: "username",
    required: true,
    maxlength: "150",
  });
  const password = h("input", {
    id: "password",
    name: "password",
    type: "password",
    autocomplete: "current-password",
    required: true,
    maxlength: "128",
  });
  const form = h(
    "form",
    { class: "sign-in", "aria-labelledby": "sign-in-title" },
    h("h1", { id: "sign-in-title" }, "Play Switch"),
    h("p", {}, "Sign in to play, or sign up with a new username and password: it takes a moment."),
    h("p", { class: "field" }, h("label", { for: "username" }, "Username"), username),
    h("p", { class: "field" }, h("label", { for: "password" }, "Password"), password),
    h(
      "p",
      { class: "buttons" },
      h("button", { type: "submit", value: "sign-in" }, "Sign in"),
      h("button", { type: "submit", value: "sign-up", class: "secondary" }, "Sign up"),
    ),
    error,
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const submitter = /** @type {SubmitEvent} */ (event).submitter;
    const kind = submitter instanceof HTMLButtonElement && submitter.value === "sign-up" ? "sign-up" : "sign-in";
    error.textContent = "";
    const buttons = Array.from(form.querySelectorAll("button"));
    for (const button of buttons) {
      button.disabled = true;
    }
    try {
      const token = await obtainToken(kind, username.value, password.value);
      const api = new Api(token);
      const me = await api.get("/players/me/");
      saveSession(token, me.username);
      done({ api, username: me.username });
    } catch (failure) {
      if (!(failure instanceof ApiError)) {
        throw failure;
      }
      error.textContent = failure.describe();
    } finally {
      for (const button of buttons) {
        button.disabled = false;
      }
    }
  });
  return form;
}
