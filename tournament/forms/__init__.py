"""The forms: they read what a person typed.

A form parses and checks the input with the same rules as the services
(`tournament.rules.validation` for text and numbers, the scoring package for cards,
`tournament.rules.hand_errors` for the card messages), so that a mistake is reported
next to the field it is in, in the person's language. The view then calls one
service with the form's values (`service_kwargs()`); the service checks
everything again, since it also serves the admin, the commands and the import.

One module per role (td.py, revisor.py, public.py), hands.py for the hand entry both the TD
and the revisor use, and fields.py for what they all share. Every text limit is read from
the model's column (`max_length`), never repeated.
"""
