// "Show" on a permission notification: scroll the request's card into view and focus its first option.
// The tab switch that brings it on screen may render a few frames later, so it looks for a short while.
const FRAMES = 120;

export function revealRequest(requestId: string, framesLeft = FRAMES): void {
  const heading = document.getElementById(`perm-${requestId}`);
  const card = heading?.closest('.permission-request');
  if (!(card instanceof HTMLElement)) {
    if (framesLeft > 0) requestAnimationFrame(() => revealRequest(requestId, framesLeft - 1));
    return;
  }
  card.scrollIntoView({ block: 'center' });
  card.querySelector<HTMLButtonElement>('button.permission-option')?.focus({ preventScroll: true });
}
