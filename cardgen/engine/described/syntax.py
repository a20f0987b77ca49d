"""The expression language of a rules file (engine.yaml): a small, Python-like language read by its own parser.

An expression is text in a YAML value: `card.cost <= coins`, `sum(x.force for x in column[p][c])`,
`survivors[p] if verdict[c] == p else graveyard[p]`. It is parsed here into a tree of `Node`s and compiled into
closures by `compiler.py`; nothing is ever handed to Python's `eval`. The grammar, loosest first:

    expression  := or ['if' or 'else' expression]
    or / and    := left 'or' right, left 'and' right; 'not' x
    comparison  := sum [('==' | '!=' | '<' | '<=' | '>' | '>=' | 'in' | 'not in') sum]
    sum, term   := '+' '-', then '*' '/' '//' '%'; unary '-'
    postfix     := atom ('.' name | '[' index or slice ']' | '(' arguments ')')*
    atom        := number | 'text' | name | true | false | none | '(' expression ')' | '(' a, b ')' | '[' items ']'
    generator   := expression 'for' name 'in' or ['if' or] ('for' … )*   (inside a call's parentheses or '[ ]')

A syntax error is a `SyntaxProblem` with the column it was found at; the caller locates it in its file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

GRAMMAR = """\
expression  := or ['if' or 'else' expression]        a if test else b
or / and    := a 'or' b, a 'and' b; 'not' a
comparison  := sum [op sum]                          ==  !=  <  <=  >  >=  in  not in   (one at a time)
sum, term   := a + b, a - b; a * b, a / b, a // b, a % b; -a
postfix     := atom ('.' name | '[' index ']' | '[' from ':' to ']' | '(' arguments ')')*
atom        := 12 | 2.5 | 'text' | "text" | name | true | false | none | (a) | (a, b) | [a, b]
generator   := item 'for' name 'in' list ['if' test] ('for' …)*      inside f( … ) or [ … ]
"""

KEYWORDS = {"and", "or", "not", "if", "else", "for", "in", "true", "false", "none", "True", "False", "None"}
MOST_DIGITS = 15  # no rule needs a number of more digits; a longer one is a mistake, never a 4,300-digit int()
MOST_LENGTH = 4_000  # characters in one expression
MOST_DEPTH = 60  # nesting of brackets and operators: the parser recurses, and Python's stack is finite

_TOKEN = re.compile(
    r"\s*(?:(?P<number>\d+(?:\.\d+)?)|(?P<name>[A-Za-z_][A-Za-z0-9_]*)|(?P<text>'[^'\n]*'|\"[^\"\n]*\")"
    r"|(?P<op>//|==|!=|<=|>=|[-+*/%<>()\[\].,:=]))"
)


class SyntaxProblem(ValueError):
    """What is wrong with an expression, and the column (1-based) where it was noticed."""

    def __init__(self, message: str, column: int):
        super().__init__(message)
        self.column = column


@dataclass(frozen=True)
class Node:
    """One node of a parsed expression: its kind, its parts (nodes or plain values) and its column."""

    kind: str
    parts: tuple[Any, ...]
    column: int


@dataclass(frozen=True)
class Token:
    kind: str  # number, name, text, op, end
    text: str
    column: int


def tokens(text: str) -> list[Token]:
    """The tokens of an expression; a character that starts none is a `SyntaxProblem`."""
    if len(text) > MOST_LENGTH:
        raise SyntaxProblem(f"an expression of {len(text):,} characters (at most {MOST_LENGTH:,})", 1)
    found: list[Token] = []
    at = 0
    while True:
        while at < len(text) and text[at].isspace():
            at += 1
        if at >= len(text):
            return [*found, Token("end", "", at + 1)]
        match = _TOKEN.match(text, at)
        if match is None or match.end() == at:
            raise SyntaxProblem(f"unexpected character {text[at]!r}", at + 1)
        kind = match.lastgroup or "op"
        word = match.group(kind)
        column = match.start(kind) + 1
        if kind == "number" and len(word.replace(".", "")) > MOST_DIGITS:
            raise SyntaxProblem(f"a number of more than {MOST_DIGITS} digits", column)
        found.append(Token(kind, word, column))
        at = match.end()


def parse(text: str) -> Node:
    """The tree of one expression."""
    parser = _Parser(tokens(text))
    node = parser.expression()
    parser.expect_end()
    return node


def parse_target(text: str) -> Node:
    """An assignment's target (`metal`, `bonus[p][c]`, `card.damage`): a name with subscripts or one attribute."""
    node = parse(text)
    if not _assignable(node):
        raise SyntaxProblem(
            f"'{text}' cannot be set: write a value (metal, bonus[p][c]) or a card's mark (card.damage)", 1
        )
    return node


def _assignable(node: Node) -> bool:
    if node.kind == "name":
        return True
    if node.kind == "index":
        return _assignable(node.parts[0])
    return node.kind == "attribute"


def template(text: str) -> list[str | Node]:
    """A label or message with `{expression}` parts (`place column {c + 1}`; `{{` and `}}` are braces)."""
    parts: list[str | Node] = []
    literal, at = "", 0
    while at < len(text):
        char = text[at]
        if text.startswith("{{", at) or text.startswith("}}", at):
            literal, at = literal + char, at + 2
        elif char == "{":
            end = text.find("}", at)
            if end < 0:
                raise SyntaxProblem("a '{' without its '}'", at + 1)
            if literal:
                parts.append(literal)
                literal = ""
            try:
                parts.append(parse(text[at + 1 : end]))
            except SyntaxProblem as exc:
                raise SyntaxProblem(str(exc), at + 1 + exc.column) from None
            at = end + 1
        elif char == "}":
            raise SyntaxProblem("a '}' without its '{' (write '}}' for a brace)", at + 1)
        else:
            literal, at = literal + char, at + 1
    if literal:
        parts.append(literal)
    return parts


COMPARISONS = ("==", "!=", "<", "<=", ">", ">=", "in")


class _Parser:
    """Recursive descent over the tokens, one method per level of the grammar."""

    def __init__(self, found: list[Token]):
        self.tokens, self.at, self.depth = found, 0, 0

    # -- helpers ------------------------------------------------------------------------------------------------------

    @property
    def token(self) -> Token:
        return self.tokens[self.at]

    def take(self) -> Token:
        token = self.tokens[self.at]
        self.at += 1
        return token

    def is_op(self, *texts: str) -> bool:
        return self.token.kind == "op" and self.token.text in texts

    def is_word(self, *words: str) -> bool:
        return self.token.kind == "name" and self.token.text in words

    def expect(self, text: str) -> Token:
        if not (self.is_op(text) or self.is_word(text)):
            raise SyntaxProblem(f"expected '{text}', found {self.shown()}", self.token.column)
        return self.take()

    def shown(self) -> str:
        return "the end" if self.token.kind == "end" else f"'{self.token.text}'"

    def expect_end(self) -> None:
        if self.token.kind != "end":
            raise SyntaxProblem(f"unexpected {self.shown()}", self.token.column)

    def deeper(self) -> None:
        self.depth += 1
        if self.depth > MOST_DEPTH:
            raise SyntaxProblem(f"an expression nested more than {MOST_DEPTH} levels deep", self.token.column)

    # -- the grammar --------------------------------------------------------------------------------------------------

    def expression(self) -> Node:
        self.deeper()
        try:
            node = self.disjunction()
            if self.is_word("if"):
                column = self.take().column
                test = self.disjunction()
                self.expect("else")
                return Node("choice", (test, node, self.expression()), column)
            return node
        finally:
            self.depth -= 1

    def disjunction(self) -> Node:
        node = self.conjunction()
        while self.is_word("or"):
            self.take()
            node = Node("or", (node, self.conjunction()), node.column)
        return node

    def conjunction(self) -> Node:
        node = self.negation()
        while self.is_word("and"):
            self.take()
            node = Node("and", (node, self.negation()), node.column)
        return node

    def negation(self) -> Node:
        if self.is_word("not"):
            column = self.take().column
            self.deeper()
            try:
                return Node("not", (self.negation(),), column)
            finally:
                self.depth -= 1
        return self.comparison()

    def comparison(self) -> Node:
        node = self.sum()
        if self.is_op(*COMPARISONS) or self.is_word("in") or (self.is_word("not") and self._not_in()):
            column = self.token.column
            if self.is_word("not"):
                self.take()
                self.take()
                op = "not in"
            else:
                op = self.take().text
            node = Node("compare", (op, node, self.sum()), column)
            if self.is_op(*COMPARISONS) or self.is_word("in"):
                raise SyntaxProblem("one comparison at a time: write 'a < b and b < c'", self.token.column)
        return node

    def _not_in(self) -> bool:
        following = self.tokens[self.at + 1]
        return following.kind == "name" and following.text == "in"

    def sum(self) -> Node:
        node = self.term()
        while self.is_op("+", "-"):
            op = self.take()
            node = Node("binary", (op.text, node, self.term()), op.column)
        return node

    def term(self) -> Node:
        node = self.unary()
        while self.is_op("*", "/", "//", "%"):
            op = self.take()
            node = Node("binary", (op.text, node, self.unary()), op.column)
        return node

    def unary(self) -> Node:
        if self.is_op("-"):
            column = self.take().column
            self.deeper()
            try:
                return Node("negative", (self.unary(),), column)
            finally:
                self.depth -= 1
        return self.postfix()

    def postfix(self) -> Node:
        node = self.atom()
        while True:
            if self.is_op("."):
                self.take()
                name = self.take()
                if name.kind != "name":
                    raise SyntaxProblem("expected a name after '.'", name.column)
                node = Node("attribute", (node, name.text), name.column)
            elif self.is_op("["):
                column = self.take().column
                node = Node(*self.subscript(node), column)
                self.expect("]")
            elif self.is_op("("):
                if node.kind != "name":
                    raise SyntaxProblem("only a function's name can be called", self.token.column)
                column = self.take().column
                arguments, keywords = self.arguments()
                node = Node("call", (node.parts[0], tuple(arguments), tuple(keywords)), column)
            else:
                return node

    def subscript(self, node: Node) -> tuple[str, tuple[Any, ...]]:
        start = None if self.is_op(":") else self.expression()
        if not self.is_op(":"):
            assert start is not None
            return "index", (node, start)
        self.take()
        end = None if self.is_op("]") else self.expression()
        return "slice", (node, start, end)

    def arguments(self) -> tuple[list[Node], list[tuple[str, Node]]]:
        arguments: list[Node] = []
        keywords: list[tuple[str, Node]] = []
        while not self.is_op(")"):
            if (
                self.token.kind == "name"
                and self.tokens[self.at + 1].text == "="
                and self.tokens[self.at + 1].kind == "op"
            ):
                name = self.take().text
                self.take()
                keywords.append((name, self.expression()))
            else:
                if keywords:
                    raise SyntaxProblem("a named argument (by=…) comes after the others", self.token.column)
                arguments.append(self.item())
            if not self.is_op(")"):
                self.expect(",")
        self.take()
        return arguments, keywords

    def item(self) -> Node:
        """An expression, or a generator `x.cost for x in hand if …` (in calls and lists)."""
        node = self.expression()
        if not self.is_word("for"):
            return node
        clauses = []
        while self.is_word("for"):
            column = self.take().column
            name = self.take()
            if name.kind != "name" or name.text in KEYWORDS:
                raise SyntaxProblem("expected a name after 'for'", name.column)
            self.expect("in")
            source = self.disjunction()
            test = None
            if self.is_word("if"):
                self.take()
                test = self.disjunction()
            clauses.append((name.text, source, test, column))
        return Node("generator", (node, tuple(clauses)), node.column)

    def atom(self) -> Node:
        token = self.take()
        if token.kind == "number":
            value: Any = float(token.text) if "." in token.text else int(token.text)
            return Node("constant", (value,), token.column)
        if token.kind == "text":
            return Node("constant", (token.text[1:-1],), token.column)
        if token.kind == "name":
            if token.text in ("true", "True"):
                return Node("constant", (True,), token.column)
            if token.text in ("false", "False"):
                return Node("constant", (False,), token.column)
            if token.text in ("none", "None"):
                return Node("constant", (None,), token.column)
            if token.text in KEYWORDS:
                raise SyntaxProblem(f"unexpected '{token.text}'", token.column)
            return Node("name", (token.text,), token.column)
        if token.text == "(":
            self.deeper()
            try:
                if self.is_op(")"):
                    self.take()
                    return Node("tuple", (), token.column)
                first = self.item()
                if first.kind == "generator":  # `(x for x in …)`: a generator given with other arguments
                    self.expect(")")
                    return first
                if self.is_op(","):
                    items = [first]
                    while self.is_op(","):
                        self.take()
                        if self.is_op(")"):
                            break
                        items.append(self.expression())
                    self.expect(")")
                    return Node("tuple", tuple(items), token.column)
                self.expect(")")
                return first
            finally:
                self.depth -= 1
        if token.text == "[":
            self.deeper()
            try:
                items = []
                while not self.is_op("]"):
                    items.append(self.item())
                    if items[-1].kind == "generator":
                        break
                    if not self.is_op("]"):
                        self.expect(",")
                self.expect("]")
                if len(items) == 1 and items[0].kind == "generator":
                    return Node("collect", (items[0],), token.column)
                return Node("list", tuple(items), token.column)
            finally:
                self.depth -= 1
        shown = "the end of the expression" if token.kind == "end" else f"'{token.text}'"
        raise SyntaxProblem(f"expected a value, found {shown}", token.column)


def chain_of(node: Node) -> tuple[list[Node], Node]:
    """`bonus[p][c]` → ([p, c], bonus)."""
    chain = []
    while node.kind == "index":
        chain.append(node.parts[1])
        node = node.parts[0]
    chain.reverse()
    return chain, node
