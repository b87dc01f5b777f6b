/**
 * GraphiQL marks each tab's <li> as the tab and puts a button inside it: a control inside a control, which
 * screen readers cannot announce properly (axe: nested-interactive). This moves the tab's role and state to
 * the button, which is what receives focus and clicks, and leaves the <li> as plain structure.
 */
export function moveTabRoleToButtons(root: HTMLElement): void {
  const fix = () => {
    for (const item of root.querySelectorAll<HTMLLIElement>('li[role="tab"]')) {
      const button = item.querySelector<HTMLButtonElement>('.graphiql-tab-button');
      if (!button) continue;
      button.setAttribute('role', 'tab');
      button.setAttribute('aria-selected', item.getAttribute('aria-selected') ?? 'false');
      item.setAttribute('role', 'presentation');
      item.removeAttribute('aria-selected');
    }
  };
  fix();
  new MutationObserver(fix).observe(root, {
    subtree: true,
    childList: true,
    attributes: true,
    attributeFilter: ['role', 'aria-selected'],
  });
}
