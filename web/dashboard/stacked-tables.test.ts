// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { axisLabel } from './axis-label';
import { labelTableCells } from './stacked-tables';

describe('stacked tables', () => {
  it("labels each cell with its column's heading and gives every part its table role", () => {
    document.body.innerHTML = `
      <main>
        <table class="data">
          <caption>Payments</caption>
          <thead><tr><th scope="col">Amount</th><th scope="col">Status</th><th scope="col"></th></tr></thead>
          <tbody>
            <tr><td class="num">$42.00</td><td><span class="badge">Succeeded</span></td><td><a href="#">Open</a></td></tr>
            <tr><td colspan="3">No more</td></tr>
          </tbody>
        </table>
        <table class="plain"><tbody><tr><td>untouched</td></tr></tbody></table>
      </main>`;
    labelTableCells(document.body);
    const [amount, status, open] = [...document.querySelectorAll('table.data tbody tr:first-child td')];
    expect(amount?.getAttribute('data-label')).toBe('Amount');
    expect(status?.getAttribute('data-label')).toBe('Status');
    // A column without a name (actions) and a cell across columns have no label.
    expect(open?.hasAttribute('data-label')).toBe(false);
    expect(document.querySelector('td[colspan]')?.hasAttribute('data-label')).toBe(false);
    expect(document.querySelector('table.data')?.getAttribute('role')).toBe('table');
    expect([...document.querySelectorAll('table.data tr')].map((r) => r.getAttribute('role'))).toEqual(['row', 'row', 'row']);
    expect(document.querySelector('table.data th')?.getAttribute('role')).toBe('columnheader');
    expect(amount?.getAttribute('role')).toBe('cell');
    expect(document.querySelector('table.plain td')?.hasAttribute('data-label')).toBe(false);
  });

  it('names a row heading as one', () => {
    document.body.innerHTML = `<table class="data"><thead><tr><th scope="col">Step</th><th scope="col">Sessions</th></tr></thead>
      <tbody><tr><th scope="row">Paid</th><td>2</td></tr></tbody></table>`;
    labelTableCells(document.body);
    expect(document.querySelector('tbody th')?.getAttribute('role')).toBe('rowheader');
    expect(document.querySelector('tbody td')?.getAttribute('data-label')).toBe('Sessions');
  });
});

describe('bar chart axis labels', () => {
  it('break between words into short lines', () => {
    expect(axisLabel('Paid')).toBe('Paid');
    expect(axisLabel('Authentication failed twice')).toBe('Authentication\nfailed twice');
    expect(axisLabel('insufficient_funds_and_more_words')).toBe('insufficient_funds_and_more_words');
  });
});
