import { MockedProvider, type MockedResponse } from '@apollo/client/testing';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { toast } from 'react-hot-toast/headless';
import { TestRouter } from '../support/TestRouter';
import { Toasts } from '../../src/components/Toasts';

/** The signed-in admin of these tests (useAuth is mocked to answer this user). */
export const me = { uid: 'uid-admin', email: 'admin@partsyard.test', displayName: 'Ada Admin', photoURL: '' };

/** jsdom has <dialog> but not showModal/close: enough of them for ConfirmModal. */
export function polyfillDialog() {
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
    if (!this.hasAttribute('open')) return;
    this.removeAttribute('open');
    this.dispatchEvent(new Event('close'));
  };
}

/** Renders an admin page with mocked GraphQL answers, a router at `path`, and the toasts. */
export function renderAdmin(page: ReactElement, mocks: MockedResponse[], path = '/dashboard') {
  toast.remove();
  return render(
    <MockedProvider mocks={mocks}>
      <TestRouter initialEntries={[path]}>
        {page}
        <Toasts />
      </TestRouter>
    </MockedProvider>,
  );
}
