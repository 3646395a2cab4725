// Sounds made in the browser (Web Audio): no files to fetch or license. A chime when it becomes
// your turn, a soft tap when a card is laid, a rustle when cards are drawn. The browser lets a
// page sound only after the person has touched it, so the first click or key wakes the audio.

/** @typedef {"turn" | "card" | "draw"} Sound */

/**
 * @returns {{play: (sound: Sound) => void}}
 */
export function createSounds() {
  /** @type {AudioContext | null} */
  let context = null;

  function wake() {
    if (context === null && typeof AudioContext === "function") {
      context = new AudioContext();
    }
    if (context?.state === "suspended") {
      context.resume().catch(() => {});
    }
  }
  window.addEventListener("pointerdown", wake, { once: true });
  window.addEventListener("keydown", wake, { once: true });

  /**
   * @param {AudioContext} audio
   * @param {{frequency: number, at: number, length: number, volume: number, type?: OscillatorType}} note
   */
  function tone(audio, { frequency, at, length, volume, type = "sine" }) {
    const oscillator = audio.createOscillator();
    const gain = audio.createGain();
    const start = audio.currentTime + at;
    oscillator.type = type;
    oscillator.frequency.value = frequency;
    gain.gain.setValueAtTime(0.0001, start);
    gain.gain.exponentialRampToValueAtTime(volume, start + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, start + length);
    oscillator.connect(gain).connect(audio.destination);
    oscillator.start(start);
    oscillator.stop(start + length + 0.02);
  }

  return {
    play(sound) {
      if (context === null || context.state !== "running") {
        return; // not woken by the person yet
      }
      switch (sound) {
        case "turn":
          tone(context, { frequency: 659, at: 0, length: 0.18, volume: 0.2 });
          tone(context, { frequency: 988, at: 0.12, length: 0.3, volume: 0.18 });
          break;
        case "card":
          tone(context, { frequency: 190, at: 0, length: 0.07, volume: 0.25, type: "triangle" });
          break;
        case "draw":
          tone(context, { frequency: 320, at: 0, length: 0.05, volume: 0.12, type: "triangle" });
          tone(context, { frequency: 280, at: 0.06, length: 0.05, volume: 0.1, type: "triangle" });
          break;
      }
    },
  };
}
